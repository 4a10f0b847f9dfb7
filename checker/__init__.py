"""checker"""
