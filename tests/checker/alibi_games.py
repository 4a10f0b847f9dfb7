"""Random legal games of Perfect Alibi, written as logs (a test helper).

:func:`play` deals the cards (and the Rival tiles), draws the interrogation
tiles from a stack, lets the players choose their assistants, then plays
turns at random by the rulebook — tiles of other colours, swaps on arrows,
the Journalist's questions, the answer counted from the deal (a lie of one
when a Rival tile says so), the card shown or drawn by the Cook — until a
player guesses right.  Wrong guesses and, in the Unforgiving variant,
failed treachery charges put players out on the way.  The log records
everything (an omniscient referee's log) unless ``private`` is false.

It is written independently of the rule file, from the rulebook, so a log
it writes that the checker does not find clean is a disagreement worth
reading.  The clean example games of ``examples/perfect-alibi/`` were made
with it (``python -m tests.checker.alibi_games SEED PLAYERS [rival|unforgiving]``).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

LOCATIONS = ["Bar", "Restaurant", "Solarium", "L4"]
TIMES = ["6", "12", "T3", "T4"]
CARDS = [(loc, t) for loc in LOCATIONS for t in TIMES]
ASSISTANTS = ["Journalist", "Captain", "Psychiatrist", "Priest", "Cook"]
COLOURS = ["Yellow", "Blue", "Green", "Red", "C5"]
NAMES = ["Yellow", "Blue", "Green", "Red", "Violet"]
HAND = {3: 5, 4: 3, 5: 3}
#: Tiles of one colour (the rulebook does not give them: a guess, the same as tests' overlays).
TILES = {("wheel", False): 3, ("clock", False): 3, ("wheel", True): 1, ("clock", True): 1}


def card_name(card: tuple[str, str]) -> str:
    return f"{card[0]} {card[1]}"


def element(e: str) -> str:
    return f'"{e}"' if e[0].isdigit() else e


@dataclass
class Game:
    n: int
    rng: random.Random
    rival: bool = False
    unforgiving: bool = False
    private: bool = True
    draws: bool = True
    players: list[str] = field(default_factory=list)
    colour: dict[str, str] = field(default_factory=dict)
    hands: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    row: list[tuple[str, str]] = field(default_factory=list)
    missing: tuple[str, str] = ("", "")
    rivals: dict[str, str] = field(default_factory=dict)
    assistant: dict[str, str] = field(default_factory=dict)
    stack: list[tuple[str, str, bool]] = field(default_factory=list)
    display: list[tuple[str, str, bool]] = field(default_factory=list)
    used: list[tuple[str, str, bool]] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    questions: list[tuple[int, str, str]] = field(default_factory=list)  # (move number, asker, target)
    first: str = ""
    winner: str | None = None

    # -- set-up ------------------------------------------------------------------
    def setup(self) -> None:
        self.players = NAMES[:self.n]
        self.colour = dict(zip(self.players, COLOURS))
        cards = CARDS[:]
        self.rng.shuffle(cards)
        self.missing = cards.pop()
        size = HAND[self.n]
        for p in self.players:
            self.hands[p] = [cards.pop() for _ in range(size)]
        self.row = cards
        if self.rival:
            tiles = ASSISTANTS[:]
            self.rng.shuffle(tiles)
            self.rivals = {p: tiles[i] for i, p in enumerate(self.players)}
        self.stack = [(self.colour[p], sym, arrows) for p in self.players
                      for (sym, arrows), k in TILES.items() for _ in range(k)]
        self.rng.shuffle(self.stack)
        for _ in range(4):
            self.draw(None)
        first_chooser = next(p for p in self.players if self.colour[p] == self.display[0][0])
        order = [self.players[(self.players.index(first_chooser) - i) % self.n] for i in range(self.n)]
        self.first = order[-1]
        for p in order:
            free = [a for a in ASSISTANTS if a not in self.assistant.values()]
            self.assistant[p] = self.rng.choice(free)
            self.moves.append(f"{{choose: {p}, assistant: {self.assistant[p]}}}")

    def draw(self, who: str | None) -> None:
        if not self.stack:
            self.stack, self.used = self.used, []
            self.rng.shuffle(self.stack)
        tile = self.stack.pop()
        self.display.append(tile)
        if self.draws:
            arrows = ", arrows: true" if tile[2] else ""
            self.moves.append(f"{{draw: {who or self.players[0]}, colour: {tile[0]}, symbol: {tile[1]}{arrows}}}")

    # -- turns -------------------------------------------------------------------
    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.out]

    def next_active(self, p: str) -> str:
        i = self.players.index(p)
        for k in range(1, self.n + 1):
            q = self.players[(i + k) % self.n]
            if q not in self.out:
                return q
        return p

    def count(self, target: str, asked: list[str]) -> int:
        return sum(1 for c in self.hands[target] if c[0] in asked or c[1] in asked)

    def answer(self, asker: str, target: str, asked: list[str]) -> int:
        true = self.count(target, asked)
        if self.rival and self.rivals[target] == self.assistant[asker]:
            return 1 if true == 0 else true + self.rng.choice([-1, 1])
        return true

    def ask(self, asker: str, target: str, asked: list[str], how: str) -> None:
        stated = self.answer(asker, target, asked)
        extra = ""
        if stated >= 2 and self.assistant.get(target) != "Psychiatrist":
            if self.assistant.get(asker) == "Cook":
                extra = f", drawn: {card_name(self.rng.choice(self.hands[target]))}"
            else:
                match = [c for c in self.hands[target] if c[0] in asked or c[1] in asked]
                extra = f", shown: {card_name(self.rng.choice(match))}"
        answer = f", answer: {stated}"
        if self.assistant.get(asker) == "Priest" and not self.private:
            answer = ""  # a spectator does not hear the Priest's answer
            extra = ', shown: "?"' if "shown" in extra else extra
        items = ", ".join(element(e) for e in asked)
        self.moves.append(f"{{ask: {asker}, target: {target}{how}, asked: [{items}]{answer}{extra}}}")
        self.questions.append((len(self.moves), asker, target))

    def question(self, kind: str) -> list[str]:
        pool = LOCATIONS if kind == "wheel" else TIMES
        return self.rng.sample(pool, self.rng.choice([1, 1, 2, 2, 3]))

    def turn(self, p: str) -> None:
        mine = self.colour[p]
        others = [t for t in self.display if t[0] != mine]
        if self.assistant[p] == "Journalist" and self.rng.random() < 0.4:
            target = self.rng.choice([q for q in self.players if q != p])
            self.ask(p, target, self.question(self.rng.choice(["wheel", "clock"])), ", via: journalist")
            return
        if others:
            tile = self.rng.choice(others)
            target = next(q for q in self.players if self.colour[q] == tile[0])
            how = f", symbol: {tile[1]}" + (", arrows: true" if tile[2] else "")
        else:  # every face-up tile is the player's own colour
            tile = self.rng.choice(self.display)
            target = self.rng.choice([q for q in self.players if q != p])
            how = f", via: own-colour, symbol: {tile[1]}" + (", arrows: true" if tile[2] else "")
        if tile[2]:
            self.swap(p, target)
        self.ask(p, target, self.question(tile[1]), how)
        self.display.remove(tile)
        self.used.append(tile)
        self.draw(p)

    def swap(self, p: str, target: str) -> None:
        free = [a for a in ASSISTANTS if a not in self.assistant.values()]
        if free and self.rng.random() < 0.5:
            self.assistant[p] = self.rng.choice(free)
            self.moves.append(f"{{swap: {p}, assistant: {self.assistant[p]}}}")
            return
        taken = self.assistant[target]
        self.assistant[p] = taken
        self.moves.append(f"{{swap: {p}, assistant: {taken}}}")
        free = [a for a in ASSISTANTS if a not in [self.assistant[q] for q in self.players if q != target]]
        choice = self.rng.choice(free)
        self.assistant[target] = choice
        self.moves.append(f"{{choose: {target}, assistant: {choice}}}")

    def guess(self, p: str, right: bool) -> None:
        if right:
            self.moves.append(f"{{guess: {p}, card: {card_name(self.missing)}, correct: true}}")
            self.winner = p
            return
        wrong = self.rng.choice([c for c in CARDS if c != self.missing])
        self.moves.append(f"{{guess: {p}, card: {card_name(wrong)}, correct: false}}")
        self.out.append(p)
        if len(self.active()) == 1:
            self.winner = self.active()[0]

    def charge(self, p: str) -> None:
        """A failed treachery charge over an earlier question (every answer here is right)."""
        asked = [q for q in self.questions if q[2] != p]
        if not asked:
            return
        number, _asker, target = self.rng.choice(asked)
        self.moves.append(f"{{accuse: {p}, target: {target}, question: {number}, mistake: false}}")
        self.out.append(p)
        if len(self.active()) == 1:
            self.winner = self.active()[0]

    def run(self, turns: int) -> str:
        self.setup()
        p = self.first
        for i in range(turns):
            if self.winner:
                break
            roll = self.rng.random()
            if i > turns // 3 and roll < 0.06 and len(self.active()) > 2:
                self.guess(p, right=False)
            elif self.unforgiving and i > turns // 3 and roll < 0.12 and len(self.active()) > 2:
                self.charge(p)
            else:
                self.turn(p)
            if self.winner:
                break
            p = self.next_active(p)
        if not self.winner:
            target = self.rng.choice([q for q in self.players if q != p])
            self.ask(p, target, self.question("wheel"), ", via: final")
            self.guess(p, right=True)
        return self.text()

    def text(self) -> str:
        house = [h for h, on in (("rival", self.rival), ("unforgiving", self.unforgiving)) if on]
        lines = ["rules: perfect-alibi"]
        if house:
            lines.append(f"house: [{', '.join(house)}]")
        lines.append(f"players: [{', '.join(self.players)}]")
        lines.append(f"first: {self.first}")
        lines.append("setup:")
        lines.append("  colours: {" + ", ".join(f"{p}: {c}" for p, c in self.colour.items()) + "}")
        if self.row:
            lines.append("  face_up: [" + ", ".join(card_name(c) for c in self.row) + "]")
        if self.private:
            lines.append("private:")
            lines.append("  hand:")
            for p in self.players:
                lines.append(f"    {p}: [" + ", ".join(card_name(c) for c in self.hands[p]) + "]")
            if self.rival:
                lines.append("  rival: {" + ", ".join(f"{p}: {a}" for p, a in self.rivals.items()) + "}")
            lines.append(f"  missing: {card_name(self.missing)}")
        lines.append("moves:")
        lines.extend(f"  - {m}" for m in self.moves)
        lines.append("end:")
        lines.append(f"  winner: {self.winner}")
        return "\n".join(lines) + "\n"


def play(seed: int, n: int = 4, turns: int = 30, **kw: bool) -> str:
    """A whole game's log, the same for the same arguments."""
    return Game(n, random.Random(seed), **kw).run(turns)


if __name__ == "__main__":
    flags = {k: True for k in sys.argv[3:]}
    print(play(int(sys.argv[1]), int(sys.argv[2]), **flags), end="")
