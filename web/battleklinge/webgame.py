"""Battleklinge in the browser: positions as the page draws them, with the board aids.

The view of a position lists the pieces, both hands (each hand's first card is
the "upper" one the page colours turquoise, the second the "lower", orange), the
side card and the five cards' jumps, and for the viewing school the rulebook's
"Hilfen am Brett" (engines/battleklinge/terminal/warnings.py computes them for the
terminal too): the own pieces the opponent can take next move, whether the master
is among them, whether the enemy master reaches the own banner next move, and per
own hand card the squares the opponent reaches with it once it is theirs.
Battleklinge has perfect information, so every seat sees the same position.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from fechtbuch.engines.battleklinge.cards import CARD_SETS, CARDS, NUM_CARDS, card_id
from fechtbuch.engines.battleklinge.kartenwahl import PICK as KARTENWAHL_PICK
from fechtbuch.engines.battleklinge.kartenwahl import PICKS as KARTENWAHL_PICKS
from fechtbuch.engines.battleklinge.kartenwahl import PREFIX as KARTENWAHL_PREFIX
from fechtbuch.engines.battleklinge.kartenwahl import Draft as KartenwahlDraft
from fechtbuch.engines.battleklinge.players import STRENGTH_NAMES
from fechtbuch.engines.battleklinge.position import (
    BANNER,
    Move,
    Position,
    iter_squares,
    square_name,
)
from fechtbuch.engines.battleklinge.terminal.warnings import banner_in_danger, reach, threatened
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.game import Game
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.seeding import shuffled
from fechtbuch.web.battleklinge.draft import Draft
from fechtbuch.web.webgame import Chooser, Start

SCHOOL_NAMES = ("choice.school.g", "choice.school.b")
"""The schools' names as catalogue keys (Gold, Blau): the page words them."""


def card_words(card: int) -> dict:
    """A card's name as a message of the catalogue (``bk.cardname.<id>``)."""
    return {"key": f"bk.cardname.{card_id(card)}"}


CARD_CHOICES = ("zufall", "einsteiger", "angriff", "verteidigung", "kartenwahl")
SCHOOLS = ("g", "b")
SIDE_FIELD = "seite"


class BattleklingeWeb:
    """Battleklinge's :class:`~fechtbuch.web.webgame.WebGame`."""

    slug = "battleklinge"
    script = "battleklinge.js"
    style = "battleklinge.css"
    modes = ("computer", "hotseat", "exercise", "daily")
    hint_strength = "stark"
    analysis = True

    def setup(self, factory: PlayerFactory | None) -> dict:
        return {
            "strength": {"choices": list(STRENGTH_NAMES), "default": "mittel"},
            "school": {"choices": list(SCHOOLS), "default": "g"},
            "cards": {"choices": list(CARD_CHOICES), "default": "zufall"},
        }

    def start(self, game: Game, mode: str, options: dict, seed: str) -> Start:
        if mode == "daily":
            return self._daily(options["day"])
        cards_choice = _choice(options, "cards", CARD_CHOICES, "zufall")
        if cards_choice == "kartenwahl":
            position, prelude = None, Draft(seed)
        else:
            position, prelude = deal(cards_choice, seed), None
        facts = {"cards": cards_choice}
        if mode == "hotseat":
            return Start(position, (0, 1), "hotseat", facts, prelude)
        school = SCHOOLS.index(_choice(options, "school", SCHOOLS, "g"))
        strength = _choice(options, "strength", STRENGTH_NAMES, "mittel")
        return Start(position, (school,), "computer", {**facts, "strength": strength}, prelude)

    def _daily(self, day: str) -> Start:
        # the daily duel is derived (and proved fair) in the puzzles layer
        from fechtbuch.puzzles.battleklinge.daily import duel_for_date

        duel = duel_for_date(dt.date.fromisoformat(day))
        position = Position.from_text(duel["position"])
        school = SCHOOLS.index(duel["school"])
        facts = {"day": day, "strength": "stark", "cards": "daily"}
        return Start(position, (school,), "daily", facts)

    def view(self, game: Game, state: Position, seat: int | None) -> dict:
        return position_view(state, state.turn if seat is None else seat)

    def action_view(self, game: Game, state: Position, action: Move) -> dict:
        return move_view(action)

    def explain(self, game: Game, state: Position, action: Move, names: Sequence[str]) -> dict:
        return explain_move(state, action, names)

    def problem_explain(self, kind, state: Position, text: str) -> dict:
        """An exercise's move (either side's) in the move list's words."""
        return explain_move(state, Move.from_text(text), SCHOOL_NAMES)

    def seat_names(self, state: Position) -> tuple[str, ...]:
        return SCHOOL_NAMES

    def next_round(self, game: Game, states: Sequence[Position], seed: str) -> None:
        return None

    def result(self, game: Game, state: Position) -> tuple[float, ...]:
        return game.returns(state)

    def computer(self, factory: PlayerFactory, strength: str, seed: int) -> Chooser:
        # the player itself, not the factory's seat: it is given the earlier
        # positions, so a computer that is ahead avoids repeating one
        player = factory.make(strength, seed)
        return lambda state, earlier: player.choose(state, list(earlier)).move

    def analyse(self, game: Game, states: Sequence[Position], actions: Sequence[str]) -> dict:
        """The analysis after the game ("?", "??" with the better move, and the
        "Wendepunkt") as ``fechtbuch analyse`` makes it, with the solver's exact hits."""
        from fechtbuch.engines.battleklinge.analysis import Analyser
        from fechtbuch.engines.battleklinge.record import GameRecord
        from fechtbuch.solver.battleklinge.hits import SolverHits

        moves = tuple(Move.from_text(text) for text in actions)
        last = states[-1]
        winner = last.winner()
        result = "*" if winner is None else "gb"[winner]
        analysis = Analyser(hits=SolverHits()).analyse(GameRecord(states[0], moves, result))
        report = analysis.to_dict()
        turning = report["turning_point"]
        if turning is not None:
            before = states[turning["number"] - 1]
            turning["view"] = position_view(before, before.turn)
            turning["names"] = list(SCHOOL_NAMES)
        return {"moves": report["moves"], "turning": turning}

    def problem_view(self, kind, state: Position, texts: Sequence[str]):
        return position_view(state, state.turn), [
            {"text": text, **move_view(Move.from_text(text))} for text in texts
        ]

    def room_board(self, variant: str, view: str, seat: int | None) -> dict:
        if view.startswith(KARTENWAHL_PREFIX):
            return {"prelude": kartenwahl_view(view)}
        position = Position.from_text(view)
        return {"view": position_view(position, position.turn if seat is None else seat)}

    def room_action(self, action: str) -> dict:
        pick, _, card = action.partition(":")
        if pick == KARTENWAHL_PICK:
            return {"card": card}
        return move_view(Move.from_text(action))


def explain_move(state: Position, action: Move, names: Sequence[str]) -> dict:
    """A move in the move list's words: a message key of the catalogue and its arguments
    (``names``: the seats' names as catalogue keys)."""
    args = {"who": {"key": names[state.turn]}, "card": card_words(action.card)}
    if action.is_pass:
        return {"key": "bk.explain.pass", "args": args}
    args["from"] = square_name(action.from_sq)
    args["to"] = square_name(action.to_sq)
    target = 1 << action.to_sq
    enemy = 1 - state.turn
    if state.masters[enemy] & target:
        return {"key": "bk.explain.master", "args": args}
    if state.students[enemy] & target:
        return {"key": "bk.explain.capture", "args": args}
    if state.masters[state.turn] & (1 << action.from_sq) and action.to_sq == BANNER[enemy]:
        return {"key": "bk.explain.banner", "args": args}
    return {"key": "bk.explain.move", "args": args}


def _choice(options: dict, name: str, choices: Sequence[str], default: str) -> str:
    value = options.get(name, default)
    if value not in choices:
        raise InputError(f"{name}: {quote(value)} is not one of {', '.join(choices)}")
    return value


def deal(cards_choice: str, seed: str) -> Position:
    """A start position for a card set (``zufall``: five of the sixteen), dealt by
    SHA-256 of ``seed``."""
    label = f"battleklinge-web-deal/{seed}"
    if cards_choice == "zufall":
        cards = shuffled(range(NUM_CARDS), label)[:5]
    else:
        cards = shuffled(CARD_SETS[cards_choice], label)
    return Position.start(cards[:2], cards[2:4], cards[4])


def kartenwahl_view(text: str) -> dict:
    """The Kartenwahl of a Wartesaal table as the draft board draws it (the page's
    prelude).  The room writes the side card still to come as ``seite=?``: nobody may
    know it, and the drawing does not use it, so any rank parses the rest."""
    draft = KartenwahlDraft.from_text(text.replace(f"{SIDE_FIELD}=?", f"{SIDE_FIELD}=0"))
    picks = len(draft.hands[0]) + len(draft.hands[1])
    done = picks == 2 * KARTENWAHL_PICKS
    return {
        "open": [card_id(c) for c in draft.open],
        "hands": [[card_id(c) for c in hand] for hand in draft.hands],
        "to_choose": None if done else draft.picker,
        # the schools alternate, so the first picker follows from who picks now
        "first": draft.picker if picks % 2 == 0 else 1 - draft.picker,
        "cards": {
            card_id(c): {
                "name": CARDS[c].name,
                "offsets": [list(o) for o in CARDS[c].offsets],
                "mark": CARDS[c].mark,
            }
            for c in range(NUM_CARDS)
        },
    }


def move_view(move: Move) -> dict:
    if move.is_pass:
        return {"card": card_id(move.card), "from": None, "to": None}
    return {
        "card": card_id(move.card),
        "from": square_name(move.from_sq),
        "to": square_name(move.to_sq),
    }


def position_view(pos: Position, seat: int) -> dict:
    """The position as the page draws it, with the aids for ``seat``."""
    pieces = []
    for school in (0, 1):
        for sq in iter_squares(pos.masters[school]):
            pieces.append({"square": square_name(sq), "school": school, "master": True})
        for sq in iter_squares(pos.students[school]):
            pieces.append({"square": square_name(sq), "school": school, "master": False})
    enemy = 1 - seat
    hit = threatened(pos, seat)
    master = pos.masters[seat]
    gifts = {}
    for card in pos.hands[seat]:
        squares = reach(pos, enemy, card)
        gifts[card_id(card)] = {
            "squares": [square_name(sq) for sq in iter_squares(squares)],
            "master": bool(squares & master),
            "banner": bool(reach(pos, enemy, card, pieces=pos.masters[enemy]) >> BANNER[seat] & 1),
        }
    winner = pos.winner()
    return {
        "pieces": pieces,
        "turn": pos.turn,
        "hands": [[card_id(c) for c in hand] for hand in pos.hands],
        "side": card_id(pos.side),
        "cards": {
            card_id(c): {
                "name": CARDS[c].name,
                "offsets": [list(o) for o in CARDS[c].offsets],
                "mark": CARDS[c].mark,
            }
            for c in pos.cards
        },
        "banners": [square_name(BANNER[0]), square_name(BANNER[1])],
        "winner": winner,
        "aids": {
            "seat": seat,
            "threatened": [square_name(sq) for sq in hit],
            "master_threatened": any(master >> sq & 1 for sq in hit),
            "banner_danger": banner_in_danger(pos, seat),
            "gifts": gifts,
        },
        "notation": pos.to_text(),
    }


WEB = BattleklingeWeb()
"""The object the plugin's ``web`` reference names."""
