"""Touché with pyramids in the browser: the board, the hand and the patterns as data.

A seat's view (:func:`board_of`) holds what that seat may see and nothing more
(:func:`~fechtbuch.engines.touche_pyramiden.notation.view_of`): the board (every
team's pyramids and the crowned fields), the cards of the 112 fields (the sheet's
fixed layout), the scores, round and pattern, its own hand with its dead cards, and
only the sizes of the other hands and of every pile.  The public view of a hotseat
game between turns leaves the hand out.  The page draws all of it itself
(``static/touche-pyramiden.js``) and words it from the catalogues; the legal actions
come with their parts (card, field, what the action does), so the page maps a tap on
a card and a field to one of them and never decides what is legal.

An exercise is drawn from the same kind of view, built from the solver's node, and
its legal actions are sent in the order of their notation, so neither the view nor
the order of the actions gives the key away.
"""

from __future__ import annotations

from collections.abc import Sequence

from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.game import Game
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.board import (
    CARD_FIELDS,
    CARD_MASK,
    FIELDS,
    FREE_FIELDS,
    card_text,
    field_name,
)
from fechtbuch.engines.touche_pyramiden.notation import (
    NotationError,
    View,
    format_action,
    format_view,
    parse_action,
    parse_board,
    parse_view,
    view_of,
)
from fechtbuch.engines.touche_pyramiden.patterns import THROUGH, Pattern, mask_fields
from fechtbuch.engines.touche_pyramiden.state import Action, Config, Kind, State
from fechtbuch.web.webgame import Chooser, Start, seat_chooser, strength_setup

TABLES = {
    "2": (2, 2),
    "3": (3, 3),
    "4": (4, 4),
    "4x2": (4, 2),
    "5": (5, 5),
    "6": (6, 6),
    "6x3": (6, 3),
    "6x2": (6, 2),
}
"""The menu's choices of players and teams (the sheet's splits: 4 players alone or
in 2 teams, 6 alone or in 3 or 2 teams), as ``players`` or ``players x teams``."""

LAYOUT = tuple(
    "" if f in FREE_FIELDS else card_text(next(k for k in range(52) if f in CARD_FIELDS[k]))
    for f in range(FIELDS)
)
"""The card of every field, by field number (``""`` for a free field)."""

ACTS = {
    Kind.PLACE: "place",
    Kind.JOKER_PLACE: "place",
    Kind.FREE: "place",
    Kind.JOKER_REMOVE: "remove",
    Kind.JOKER_REPLACE: "replace",
    Kind.EXCHANGE: "exchange",
    Kind.PASS: "pass",
    Kind.CHOOSE: "pattern",
    Kind.LEAD: "lead",
}
"""What the page does with an action: a card on a field (placing, also a joker or a
card on a free field), a joker lifting a pyramid (and putting an own one there), an
exchange of dead cards, a pass, the round's pattern, the member a team starts with."""


class PyramidenWeb:
    """The pyramid game's :class:`~fechtbuch.web.webgame.WebGame`."""

    slug = "touche-pyramiden"
    script = "touche-pyramiden.js"
    style = "touche-pyramiden.css"
    modes = ("computer", "hotseat", "exercise")
    hint_strength = "stark"
    analysis = True

    def setup(self, factory: PlayerFactory | None) -> dict:
        return {
            "strength": strength_setup(factory),
            "players": {"choices": list(TABLES), "default": "2"},
            "rounds": {"choices": ["3", "4"], "default": "3"},
        }

    def start(self, game: Game, mode: str, options: dict, seed: str) -> Start:
        players, teams = _table(options)
        rounds = int(_choice(options, "rounds", ("3", "4"), "3"))
        state = rules.new_game(Config(players, teams, rounds), seed)
        facts = {"players": players, "teams": teams, "rounds": rounds}
        if mode == "hotseat":
            return Start(state, tuple(range(players)), "hotseat", facts)
        strength = options.get("strength", "mittel")
        return Start(state, (0,), "computer", {**facts, "strength": strength})

    def view(self, game: Game, state: State, seat: int | None) -> dict:
        return board_of(view_of(state, 0 if seat is None else seat), seat is not None)

    def history_view(self, game: Game, states: Sequence[State], view: dict) -> dict:
        """``view`` with ``crowns``: the team that crowned each crowned field, which the
        state does not keep (the rules crown with black pyramids) and the board shows."""
        return {**view, "crowns": crowns_of(states)}

    def action_view(self, game: Game, state: State, action: Action) -> dict:
        return action_parts(action)

    def explain(self, game: Game, state: State, action: Action, names: Sequence[str]) -> dict:
        parts = action_parts(action)
        args: dict = {"who": {"key": names[state.to_move]}}
        if "card" in parts:
            args["card"] = card_words(parts["card"])
        if "field" in parts:
            args["field"] = parts["field"]
        if parts["act"] == "exchange":
            args["n"] = len(parts["cards"])
        if parts["act"] == "pattern":
            args["pattern"] = {"key": "tp.pattern." + parts["pattern"]}
        if parts["act"] == "lead":
            args["seat"] = {"key": names[parts["seat"]]}
        key = "tp.explain." + parts["act"]
        if action.kind is Kind.FREE:
            key = "tp.explain.free"
        elif parts.get("card") == "XX" and parts["act"] == "place":
            key = "tp.explain.joker"
        return {"key": key, "args": args}

    def seat_names(self, state: State) -> tuple[str, ...]:
        return seat_names(state.config)

    def next_round(self, game: Game, states: Sequence[State], seed: str) -> None:
        return None  # the seam's terminal state is the end of the whole game

    def result(self, game: Game, state: State) -> tuple[float, ...]:
        return game.returns(state)

    def computer(self, factory: PlayerFactory, strength: str, seed: int) -> Chooser:
        return seat_chooser(factory, strength, str(seed))

    def analyse(self, game: Game, states, actions: Sequence[str]) -> dict:
        """Per decision: did the player to act hold a sure Touché and miss it?  A game
        of two asks for one within two own actions against every hidden hand, draw and
        reply (the exercises' public-state prover); a game of more seats asks whether
        an action completed the pattern at once, and if none did, for a Touché within
        two own actions with every other seat as an adversary
        (:mod:`fechtbuch.solver.touche_pyramiden.analysis`).  A miss is "??" with an
        action that keeps the Touché; a forced action (one choice) is not asked.  The
        turning point is the first miss (:meth:`turning_point`), or ``None``."""
        from fechtbuch.solver.touche_pyramiden.analysis import askable, sure_touche

        moves = []
        asked = False
        turning = None
        for number, (state, text) in enumerate(zip(states, actions, strict=False), start=1):
            entry: dict = {"number": number, "mark": "", "better": None}
            view = view_of(state, state.to_move)
            if askable(view) and len(game.legal_actions(state)) > 1:
                asked = True
                sure = sure_touche(view)
                played = parse_action(text)
                entry["sure"] = None if sure is None else sure.turns
                if sure is not None and played not in sure.keys:
                    better = sure.keys[0]
                    entry.update(mark="??", better=format_action(better))
                    entry["better_words"] = self._words(game, state, better)
                    if turning is None:
                        turning = self.turning_point(game, state, entry, played, view)
                        turning["view"] = self.history_view(game, states[:number], turning["view"])
            moves.append(entry)
        report: dict = {"moves": moves, "turning": turning, "asked": asked}
        if not asked:  # the page says why no decision is marked
            report["note"] = {"key": "tp.analysed.unasked", "args": {}}
        return report

    def _words(self, game: Game, state: State, action: Action) -> dict:
        """An action in the move list's words: its explanation's key and arguments."""
        words = self.explain(game, state, action, self.seat_names(state))
        return {"label_key": words["key"], "args": words["args"]}

    def turning_point(
        self, game: Game, state: State, entry: dict, played: Action, view: View
    ) -> dict:
        """The turning point at a missed sure Touché (``entry``, the analysis' line of the
        decision in ``state``): the seat's view before it as the board draws it, the
        action played and the better one in the move list's words, and the better one as
        the board lights it (the page words the sentence, ``play.turning.missed``)."""
        better = parse_action(entry["better"])
        return {
            "number": entry["number"],
            "seat": state.to_move,
            "move": format_action(played),
            "mark": entry["mark"],
            "better": entry["better"],
            "sure": entry["sure"],
            "move_words": self._words(game, state, played),
            "better_words": entry["better_words"],
            "better_action": {"text": entry["better"], **action_parts(better)},
            "view": board_of(view, True),
        }

    def problem_view(self, kind, state, texts: Sequence[str]):
        from fechtbuch.puzzles.touche_pyramiden.packkind import view_of_state

        shown = view_of_state(state)
        view = board_of(shown, True)
        view["complete"] = completed_fields(shown.pattern, shown.own)
        # the solution tree lists the keys first: sorted, the order tells nothing
        return view, [{"text": text, **_parts_of_text(text)} for text in sorted(texts)]

    def problem_explain(self, kind, state, text: str) -> dict | None:
        """An exercise's action in the move list's words: a seat's action as ``explain``
        says it, the defence's card for the prover's draw (``zieht:7H``) as a draw."""
        from fechtbuch.puzzles.touche_pyramiden.packkind import view_of_state

        shown = view_of_state(state)
        names = seat_names(shown.config)
        drawn = text.removeprefix("zieht:")
        if drawn != text:
            who = {"key": names[shown.seat]}
            return {"key": "tp.explain.draw", "args": {"who": who, "card": card_words(drawn)}}
        try:
            action = parse_action(text)
        except (NotationError, InputError):
            return None
        # the view holds what explain reads of a state: the seat to move
        return self.explain(None, shown, action, names)  # type: ignore[arg-type]

    def room_board(self, variant: str, view: str, seat: int | None) -> dict:
        if seat is None:
            return {"view": public_board(view)}
        return {"view": board_of(parse_view(view), True)}

    def room_action(self, action: str) -> dict:
        return _parts_of_text(action)


def seat_names(config: Config) -> tuple[str, ...]:
    """Each seat's name as a catalogue key: its colour (``tp.seat.0``: Blau), and in a
    game of teams its colour and its place in the team (``tp.seat.0.2``: Blau 2); the
    page words them in its language."""
    if config.teams == config.players:
        return tuple(f"tp.seat.{seat}" for seat in range(config.players))
    return tuple(
        f"tp.seat.{config.team_of(seat)}.{seat // config.teams + 1}"
        for seat in range(config.players)
    )


def crowns_of(states: Sequence[State]) -> dict[str, int]:
    """Who crowned each crowned field of the last of ``states`` (a game's states in
    order): the fields crowned by a step go to the team whose points rose in it, else to
    the team that moved.  Fields crowned before the first state are not known."""
    crowns: dict[str, int] = {}
    for before, after in zip(states, states[1:], strict=False):
        new = after.crowned & ~before.crowned
        if not new:
            continue
        rose = [
            t for t, (a, b) in enumerate(zip(after.scores, before.scores, strict=True)) if a > b
        ]
        team = rose[0] if rose else before.config.team_of(before.to_move)
        for f in mask_fields(new):
            crowns[field_name(f)] = team
    return crowns


def action_parts(action: Action) -> dict:
    """An action as the page maps taps to it: ``act`` (see :data:`ACTS`) and its card,
    field, exchanged cards, pattern or seat."""
    parts: dict = {"act": ACTS[action.kind]}
    if action.field >= 0 and action.kind is not Kind.LEAD:
        parts.update(card=card_text(action.card), field=field_name(action.field))
    elif action.kind is Kind.EXCHANGE:
        parts["cards"] = [card_text(k) for k in action.cards]
    elif action.kind is Kind.CHOOSE:
        parts["pattern"] = action.pattern.value
    elif action.kind is Kind.LEAD:
        parts["seat"] = action.field
    return parts


def _parts_of_text(text: str) -> dict:
    """:func:`action_parts` of an action's notation (the room and the exercises send
    text); a text that is no action of the game (an exercise's draw ``zieht:7H``) is
    ``other``."""
    try:
        return action_parts(parse_action(text))
    except (NotationError, InputError):
        return {"act": "other"}


def card_words(card: str) -> dict:
    """A card as the catalogue words it: the rank's letter (B, D, K in German) and the
    suit's sign; a message argument the page translates."""
    if card == "XX":
        return {"key": "tp.card.joker"}
    rank = "10" if card[0] == "T" else card[0]
    return {
        "key": "tp.card",
        "args": {"rank": {"key": "tp.rank." + rank}, "suit": SUIT_SIGNS[card[1]]},
    }


SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _cells(own: Sequence[int], crowned: int) -> list[int]:
    """Per field: the team (0-5) whose pyramid stands there, -2 crowned, -1 empty."""
    cells = [-2 if crowned >> f & 1 else -1 for f in range(FIELDS)]
    for team, mask in enumerate(own):
        for f in mask_fields(mask):
            cells[f] = team
    return cells


def _board(config: Config, own: Sequence[int], crowned: int) -> dict:
    """The part of every view that everybody sees on the table."""
    return {
        "players": config.players,
        "teams": config.teams,
        "rounds": config.rounds,
        "layout": list(LAYOUT),
        "cells": _cells(own, crowned),
    }


def completed_fields(pattern: Pattern, own: Sequence[int]) -> list[str]:
    """The fields of a completed placement still standing in ``own`` (an exercise's
    last node: in a game the completed pattern is crowned at once), or ``[]``."""
    for mask in own:
        for f in mask_fields(mask):
            for placement in THROUGH[pattern][f]:
                if placement & ~mask == 0:
                    return [field_name(x) for x in mask_fields(placement)]
    return []


def board_of(shown: View, own_hand: bool) -> dict:
    """A seat's view as the board draws it; without ``own_hand`` (between the turns of
    a hotseat game) its hand is left out."""
    pattern = shown.pattern
    out = {
        **_board(shown.config, shown.own, shown.crowned),
        "scores": list(shown.scores),
        "round": shown.round,
        "to_move": shown.to_move,
        "starter": shown.starter,
        "phase": shown.phase.value,
        "pattern": None if pattern is None else pattern.value,
        "hand_sizes": list(shown.hand_sizes),
        "pile_sizes": list(shown.pile_sizes),
        "discard": [card_text(k) for k in shown.discard],
        "leads": list(shown.leads),
    }
    if own_hand:
        out["notation"] = format_view(shown)
        out["seat"] = shown.seat
        out["hand"] = [card_text(k) for k in shown.hand]
        occupied = shown.crowned
        for mask in shown.own:
            occupied |= mask
        out["dead"] = sorted(
            {card_text(k) for k in shown.hand if k < 52 and CARD_MASK[k] & ~occupied == 0}
        )
    return out


def public_board(text: str) -> dict:
    """The public view of a table (``TableSetup.public_view``: every hand and pile by
    its size) as the board draws it."""
    fields = dict(token.partition("=")[::2] for token in text.split(" ")[1:])
    teams = int(fields["teams"])
    config = Config(int(fields["spieler"]), teams, int(fields["runden"]))
    own, crowned = parse_board(fields["brett"], teams)
    sizes = [int(size.lstrip("#")) for size in fields["hand"].split("/")]
    return {
        **_board(config, own, crowned),
        "scores": [int(n) for n in fields["punkte"].split(",")],
        "round": int(fields["runde"]),
        "to_move": int(fields["zug"]),
        "starter": int(fields["start"]),
        "phase": None,
        "pattern": None if fields["muster"] == "-" else fields["muster"],
        "hand_sizes": sizes,
        "pile_sizes": [],
        "discard": [],
        "leads": [],
    }


def _choice(options: dict, name: str, choices: Sequence[str], default: str) -> str:
    value = str(options.get(name, default))
    if value not in choices:
        raise InputError(f"{name}: {quote(value)} is not one of {', '.join(choices)}")
    return value


def _table(options: dict) -> tuple[int, int]:
    """Players and teams of the menu's ``players`` choice."""
    return TABLES[_choice(options, "players", tuple(TABLES), "2")]


WEB = PyramidenWeb()
"""The object the plugin's ``web`` reference names."""
