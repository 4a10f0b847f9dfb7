"""The variant lab: simulate, compare and prove house rules (generic: no game code)."""
