"""The Touché duel in the browser: a seat's view as the exercise viewer draws it.

A seat sees its own hand only (:func:`~fechtbuch.engines.touche_duell.state.view_of`);
the public view between the turns of a hotseat game shows the track, the score and
the sizes of the hidden hands and the pile.  A game is rounds to the rule set's
target score: after each round the next is dealt from the game's seed, as the
terminal's game record deals it (round ``n`` from ``<seed>/<n>``, starters
alternating from the lot).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.game import Game
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.touche_duell.deal import lot, new_round, round_seed
from fechtbuch.engines.touche_duell.notation import parse_action, parse_view
from fechtbuch.engines.touche_duell.public import Pending
from fechtbuch.engines.touche_duell.record import game_over, round_starter
from fechtbuch.engines.touche_duell.state import (
    NOBODY,
    PLAYER_CHARS,
    RULESETS,
    Action,
    Kind,
    NotationError,
    Phase,
    Position,
    Ruleset,
    View,
    format_action,
    view_of,
)
from fechtbuch.web.webgame import Chooser, Start, seat_chooser, strength_setup

RULESET_NAMES = tuple(r.name for r in RULESETS)


class ToucheDuellWeb:
    """The Touché duel's :class:`~fechtbuch.web.webgame.WebGame`."""

    slug = "touche-duell"
    script = "touche-duell.js"
    style = "touche-duell.css"
    modes = ("computer", "hotseat", "exercise")
    hint_strength = "stark"
    analysis = True

    def setup(self, factory: PlayerFactory | None) -> dict:
        return {
            "strength": strength_setup(factory),
            "seat": {"choices": ["A", "B"], "default": "A"},
            "ruleset": {"choices": list(RULESET_NAMES), "default": "standard-kurz"},
        }

    def start(self, game: Game, mode: str, options: dict, seed: str) -> Start:
        ruleset = options.get("ruleset", "standard-kurz")
        if ruleset not in RULESET_NAMES:
            raise InputError(f"ruleset: {quote(ruleset)} is not one of {', '.join(RULESET_NAMES)}")
        rules = Ruleset.from_name(ruleset)
        position = new_round(round_seed(seed, 1), lot(seed), rules)
        facts = {"ruleset": ruleset, "target": rules.target}
        if mode == "hotseat":
            return Start(position, (0, 1), "hotseat", facts)
        seat = options.get("seat", "A")
        if seat not in tuple(PLAYER_CHARS):  # a tuple: ``7 in "AB"`` raises, ``"" in "AB"`` holds
            raise InputError(f"seat: {quote(seat)} is not A or B")
        strength = options.get("strength", "mittel")
        return Start(
            position, (PLAYER_CHARS.index(seat),), "computer", {**facts, "strength": strength}
        )

    def view(self, game: Game, state: Position, seat: int | None) -> dict:
        public = {
            "ruleset": state.rules.name,
            "squares": list(state.squares),
            "score": list(state.score),
            "target": state.rules.target,
            "mover": state.mover,
            "phase": state.phase.value,
        }
        if seat is None:
            public["hand_sizes"] = [sum(hand) for hand in state.hands]
            public["pile_size"] = len(state.pile)
            return public
        return {**public, **seat_board(view_of(state, seat))}

    def action_view(self, game: Game, state: Position, action: Action) -> dict:
        return action_words(action)

    def explain(self, game: Game, state: Position, action, names: Sequence[str]) -> dict:
        words = action_words(action)
        explained = {
            "key": words["label_key"].replace("td.action.", "td.explain."),
            "args": {"who": names[state.mover], **words["args"]},
        }
        after = game.apply(state, action)
        if after.phase.over:  # the page shows the round's end as a moment of its own
            explained["round"] = round_end(after)
        return explained

    def problem_explain(self, kind, state, text: str) -> dict | None:
        """An exercise's action in the move list's words: a fencer's action as ``explain``
        says it, the defence's choice of the cards the prover draws (``zieht 35,
        treffer``) as a draw, with the round's end when it ends there."""
        if isinstance(state, Pending):
            return draw_words(PLAYER_CHARS[state.before.viewer], text)
        try:
            words = action_words(parse_action(text))
        except NotationError:
            return None
        key = words["label_key"].replace("td.action.", "td.explain.")
        return {"key": key, "args": {"who": PLAYER_CHARS[state.mover], **words["args"]}}

    def seat_names(self, state: Position) -> tuple[str, ...]:
        return PLAYER_CHARS[0], PLAYER_CHARS[1]

    def next_round(self, game: Game, states: Sequence[Position], seed: str) -> Position | None:
        last = states[-1]
        if game_over(last):
            return None
        number = 1 + sum(1 for s in states if s.phase.over)
        starter = round_starter(states[0].mover, number)
        return new_round(round_seed(seed, number), starter, last.rules, last.score)

    def result(self, game: Game, state: Position) -> tuple[float, ...]:
        a, b = state.score
        return (1.0, 0.0) if a > b else (0.0, 1.0) if b > a else (0.5, 0.5)

    def computer(self, factory: PlayerFactory, strength: str, seed: int) -> Chooser:
        return seat_chooser(factory, strength, seed)

    def analyse(self, game: Game, states, actions: Sequence[str]) -> dict:
        """Per decision: did the fencer to act hold a sure hit (a win of the round within
        one own turn against every hidden deal and reply, proved by the public-state
        prover with meister's node limit) and miss it?  A miss is "??" with a winning
        action; a forced action (one choice) is not asked.  The turning point is the
        first miss (:meth:`turning_point`), or ``None`` when no decision missed one."""
        from fechtbuch.solver.touche_duell.analysis import sure_hits

        moves = []
        turning = None
        for number, (state, text) in enumerate(zip(states, actions, strict=False), start=1):
            entry: dict = {"number": number, "mark": "", "better": None}
            if len(game.legal_actions(state)) > 1:
                winning = sure_hits(view_of(state, state.mover))
                played = parse_action(text)
                if winning and played not in winning:
                    better = winning[0]
                    entry.update(mark="??", better=format_action(better))
                    entry["better_words"] = action_words(better)
                    if turning is None:
                        turning = self.turning_point(game, state, entry, played)
                entry["sure"] = bool(winning)
            moves.append(entry)
        return {"moves": moves, "turning": turning}

    def turning_point(self, game: Game, state: Position, entry: dict, played: Action) -> dict:
        """The turning point at a missed sure hit (``entry``, the analysis' line of the
        decision in ``state``): the fencer's view before it as the table draws it, the
        action played in the move list's words and the better one in the words of its
        button, and the better one as the table lights it (the page words the sentence,
        ``play.turning.missed``)."""
        explained = self.explain(game, state, played, self.seat_names(state))
        move_words = {"label_key": explained["key"], "args": explained["args"]}
        better = action_words(parse_action(entry["better"]))
        return {
            "number": entry["number"],
            "seat": state.mover,
            "move": format_action(played),
            "mark": entry["mark"],
            "better": entry["better"],
            "move_words": move_words,
            "better_words": entry["better_words"],
            "better_action": {"text": entry["better"], **better},
            "view": seat_board(view_of(state, state.mover)),
        }

    def problem_view(self, kind, state, texts: Sequence[str]):
        # the prover's view; after the prover acted, before the adversary's draw is
        # chosen (the exercise is over then), the view the action was played in
        view = state.before if isinstance(state, Pending) else state
        return seat_board(view), [
            {"text": text, **action_words(parse_action(text))} for text in texts
        ]

    def room_board(self, variant: str, view: str, seat: int | None) -> dict:
        if seat is None:
            return {"view": public_board(view)}
        shown = parse_view(view)
        return {"view": seat_board(shown)}

    def room_action(self, action: str) -> dict:
        return action_words(parse_action(action))


def cards(counts: Sequence[int]) -> list[int]:
    """Counts per value 1..5 as the sorted list of card values."""
    return [value for value, count in enumerate(counts, start=1) for _ in range(count)]


def seat_board(view: View) -> dict:
    """A seat's view as the board draws it: the track, its own hand, the discard and
    the unseen cards by value (the card-counting aid), and the sizes of the hidden
    rest (the other hand, the pile), never their cards."""
    sizes = [0, 0]
    sizes[view.viewer], sizes[1 - view.viewer] = sum(view.hand), view.other_size
    return {
        "ruleset": view.rules.name,
        "lunge": view.rules.lunge,
        "squares": list(view.squares),
        "score": list(view.score),
        "target": view.rules.target,
        "mover": view.mover,
        "phase": view.phase.value,
        "attack": list(view.attack),
        "seat": view.viewer,
        "hand": cards(view.hand),
        "hand_sizes": sizes,
        "pile_size": view.pile_size,
        "discard": list(view.discard),
        "unseen": list(view.unseen()),
    }


def round_end(over: Position) -> dict:
    """How a round ended, as the page shows the moment: how (``treffer``,
    ``blockiert``, ``vergleich``), the winner (``None``: nobody), the score after it
    and the squares; at the comparison both hands, which the rules lay open then."""
    end = {
        "how": over.phase.value,
        "winner": None if over.winner == NOBODY else over.winner,
        "score": list(over.score),
        "squares": list(over.squares),
        "distance": over.distance,
    }
    if over.phase is Phase.COMPARE:
        end["hands"] = [cards(hand) for hand in over.hands]
    return end


def public_board(text: str) -> dict:
    """The public view of a table (``TableSetup.public_view``: both hands and the pile
    by their sizes) as the board draws it between turns."""
    # rules, squares, score, mover, phase, hand sizes, discard, pile size
    rules, squares, score, mover, phase, hands, _discard, pile = text.split(" ")
    return {
        "ruleset": rules,
        "squares": [int(n) for n in squares.split("-")],
        "score": [int(n) for n in score.split(":")],
        "target": Ruleset.from_name(rules).target,
        "mover": PLAYER_CHARS.index(mover),
        "phase": phase,
        "hand_sizes": [int(size.lstrip("?")) for size in hands.split("/")],
        "pile_size": int(pile.lstrip("?")),
    }


DRAW = re.compile(r"zieht (?P<cards>[1-5]+|-)(?:, (?P<ended>treffer|blockiert|vergleich))?")
"""The defence's choice in an exercise (``format_hidden``): the cards drawn, the end."""


def draw_words(who: str, text: str) -> dict | None:
    """The cards ``who`` draws in an exercise, in words (``None``: not a draw)."""
    found = DRAW.fullmatch(text)
    if found is None:
        return None
    cards = found["cards"]
    draw = (
        {"key": "td.explain.draw.none", "args": {"who": who}}
        if cards == "-"
        else {"key": "td.explain.draw", "args": {"who": who, "cards": ", ".join(cards)}}
    )
    if found["ended"] is None:
        return draw
    return {
        "key": "td.explain.draw.end",
        "args": {"draw": draw, "how": {"key": "td.round." + found["ended"]}},
    }


def action_words(action: Action) -> dict:
    """The action for the page's button: its notation and a message key with the
    numbers, so the page says it in words ("2 vor", "Angriff mit 2 × 3")."""
    args = {"step": abs(action.step), "value": action.value, "count": action.count}
    key = {
        Kind.MOVE: "td.action.forward" if action.step > 0 else "td.action.back",
        Kind.ATTACK: "td.action.attack",
        Kind.LUNGE: "td.action.lunge",
        Kind.RETREAT: "td.action.retreat",
        Kind.PARRY: "td.action.parry",
        Kind.PASS: "td.action.pass",
    }[action.kind]
    return {
        "label": format_action(action),
        "label_key": key,
        "args": args,
        "kind": action.kind.name.lower(),
        "step": action.step,
        "value": action.value,
        "count": action.count,
    }


WEB = ToucheDuellWeb()
"""The object the plugin's ``web`` reference names."""
