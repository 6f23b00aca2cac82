"""A deliberately simple reference of the rules, to test the fast code against.

No bitmasks and no precomputed tables: the board is a dict from ``(column, row)``
to an owner, patterns are found by walking every anchor and orientation of each
shape across the whole board, and every rule of the sheet is written out as it
reads.  It is slow on purpose; ``rules.py`` must agree with it on every state.
The deal is shared with ``rules.py`` (set-up, not rules).
"""

from __future__ import annotations

from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.board import COLS, FIELD_CARD, JOKER, ROWS
from fechtbuch.engines.touche_pyramiden.patterns import Pattern
from fechtbuch.engines.touche_pyramiden.state import Action, Kind, Phase, State

CROWN = "x"


def board_of(state: State) -> dict[tuple[int, int], object]:
    """``(col, row) -> team index or 'x'``; empty fields are absent."""
    board: dict[tuple[int, int], object] = {}
    for col in range(COLS):
        for row in range(ROWS):
            f = row * COLS + col
            if state.crowned >> f & 1:
                board[(col, row)] = CROWN
            for team, mask in enumerate(state.own):
                if mask >> f & 1:
                    board[(col, row)] = team
    return board


def is_free(col: int, row: int) -> bool:
    return FIELD_CARD[row * COLS + col] == -1


def on_board(cells) -> bool:
    return all(0 <= c < COLS and 0 <= r < ROWS for c, r in cells)


def shapes(pattern: Pattern) -> list[frozenset[tuple[int, int]]]:
    """Every placement of the pattern, written out from its description."""
    found = set()
    names = (
        ["linie", "kvadrat", "t-form", "kors"]
        if pattern is Pattern.KOMBINATION
        else [pattern.value]
    )
    for col in range(COLS):
        for row in range(ROWS):
            candidates = []
            if "linie" in names:
                for dc, dr in [(1, 0), (0, 1), (1, 1), (1, -1)]:
                    candidates.append([(col + i * dc, row + i * dr) for i in range(5)])
            if "kvadrat" in names:
                candidates.append([(col, row), (col + 1, row), (col, row + 1), (col + 1, row + 1)])
            if "t-form" in names:
                # bar of three centred on (col,row) across direction d; stem of two along d
                for dc, dr in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
                    bar = [(col - dr, row - dc), (col, row), (col + dr, row + dc)]
                    stem = [(col + dc, row + dr), (col + 2 * dc, row + 2 * dr)]
                    candidates.append(bar + stem)
            if "kors" in names:
                plus = [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]
                times = [(0, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)]
                for arms in (plus, times):
                    candidates.append([(col + dc, row + dr) for dc, dr in arms])
            for cells in candidates:
                if on_board(cells):
                    found.add(frozenset(cells))
    return sorted(found, key=lambda cells: sorted(r * COLS + c for c, r in cells))


_SHAPES: dict[Pattern, list] = {}


def placements(pattern: Pattern) -> list[frozenset[tuple[int, int]]]:
    if pattern not in _SHAPES:
        _SHAPES[pattern] = shapes(pattern)
    return _SHAPES[pattern]


def complete_patterns(board, team: int, pattern: Pattern, last) -> list:
    """Placements standing wholly on ``team``'s fields, at most one free field, which
    must be ``last`` if there is one."""
    out = []
    for cells in placements(pattern):
        if not all(board.get(cell) == team for cell in cells):
            continue
        free = [cell for cell in cells if is_free(*cell)]
        if len(free) > 1 or (free and free[0] != last):
            continue
        out.append(cells)
    return out


def field_cell(field: int) -> tuple[int, int]:
    return field % COLS, field // COLS


def cell_field(cell) -> int:
    return cell[1] * COLS + cell[0]


def legal_actions(state: State) -> list[Action]:
    if state.phase is Phase.OVER:
        return []
    if state.phase is Phase.CHOOSE:
        return [Action(Kind.CHOOSE, pattern=p) for p in Pattern]
    if state.phase is Phase.LEAD:
        team = state.config.team_of(state.to_move)
        seats = range(state.config.players)
        return [Action(Kind.LEAD, field=s) for s in seats if state.config.team_of(s) == team]
    board = board_of(state)
    seat = state.to_move
    team = state.config.team_of(seat)
    hand = state.hands[seat]
    out = set()
    completing = set()  # free fields whose taking completes the pattern
    for f in range(ROWS * COLS):
        cell = field_cell(f)
        if is_free(*cell) and cell not in board:
            trial = dict(board)
            trial[cell] = team
            if complete_patterns(trial, team, state.pattern, cell):
                completing.add(f)
    for card in hand:
        for f in range(ROWS * COLS):
            cell = field_cell(f)
            empty = cell not in board
            if card != JOKER and FIELD_CARD[f] == card and empty:
                out.add(Action(Kind.PLACE, card, f))
            if card == JOKER and empty and not is_free(*cell):
                out.add(Action(Kind.JOKER_PLACE, card, f))
            if card == JOKER and board.get(cell) not in (None, CROWN, team):
                out.add(Action(Kind.JOKER_REMOVE, card, f))
                out.add(Action(Kind.JOKER_REPLACE, card, f))
            if f in completing:
                out.add(Action(Kind.FREE, card, f))
    dead = [
        c
        for c in hand
        if c != JOKER
        and all(field_cell(f) in board for f in range(ROWS * COLS) if FIELD_CARD[f] == c)
    ]
    for bits in range(1, 1 << len(dead)):
        chosen = tuple(sorted(dead[i] for i in range(len(dead)) if bits >> i & 1))
        out.add(Action(Kind.EXCHANGE, cards=chosen))
    if not out:
        out.add(Action(Kind.PASS))
    return sorted(out, key=Action.sort_key)


def apply(state: State, action: Action) -> State:
    """The state after ``action`` (assumed legal), derived step by step."""
    config = state.config
    n = config.players
    seat = state.to_move
    if action.kind is Kind.CHOOSE:
        if config.teams < n:
            return _with(state, phase=Phase.LEAD, pattern=action.pattern, to_move=state.starter)
        return _with(state, phase=Phase.PLAY, pattern=action.pattern, to_move=state.starter)
    if action.kind is Kind.LEAD:
        leads = list(state.leads)
        leads[config.team_of(seat)] = action.field
        following = (config.team_of(seat) + 1) % config.teams
        if following == config.team_of(state.starter):
            return _with(state, phase=Phase.PLAY, leads=tuple(leads), to_move=leads[following])
        return _with(state, leads=tuple(leads), to_move=leads[following])
    if action.kind is Kind.PASS:
        if state.passes + 1 == n:
            return rules.end_round(state, None, 0)
        return _with(state, passes=state.passes + 1, to_move=following_seat(state, seat))
    hands = [list(h) for h in state.hands]
    piles = [list(p) for p in state.piles]
    discard = list(state.discard)
    played = list(action.cards) if action.kind is Kind.EXCHANGE else [action.card]
    for card in played:
        hands[seat].remove(card)
        discard.append(card)
    for _ in played if action.kind is Kind.EXCHANGE else [0]:
        if piles[seat]:
            hands[seat].append(piles[seat].pop(0))
    board = board_of(state)
    team = config.team_of(seat)
    done = []
    if action.kind in (Kind.JOKER_REMOVE, Kind.JOKER_REPLACE):
        del board[field_cell(action.field)]
    if action.kind in (Kind.PLACE, Kind.JOKER_PLACE, Kind.JOKER_REPLACE, Kind.FREE):
        cell = field_cell(action.field)
        board[cell] = team
        done = complete_patterns(board, team, state.pattern, cell)
    own = tuple(
        sum(1 << cell_field(cell) for cell, owner in board.items() if owner == t)
        for t in range(config.teams)
    )
    after = _with(
        state,
        hands=tuple(tuple(sorted(h)) for h in hands),
        piles=tuple(tuple(p) for p in piles),
        discard=tuple(discard),
        own=own,
        passes=0,
    )
    if done:
        if action.crown:
            chosen = next(c for c in done if sum(1 << cell_field(x) for x in c) == action.crown)
        else:
            chosen = done[0]
        return rules.end_round(after, seat, sum(1 << cell_field(x) for x in chosen))
    if all(not h for h in hands) and all(not p for p in piles):
        return rules.end_round(after, None, 0)
    return _with(after, to_move=following_seat(state, seat))


def turn_order(state: State) -> list[int]:
    """One full cycle of turns after the leads were chosen, written out: teams in
    order from the starting team, each team's members in rotation from its lead."""
    config = state.config
    if config.teams == config.players:
        return [(state.starter + j) % config.players for j in range(config.players)]
    start_team = config.team_of(state.starter)
    rotations = {}
    for team in range(config.teams):
        members = [s for s in range(config.players) if config.team_of(s) == team]
        first = members.index(state.leads[team])
        rotations[team] = members[first:] + members[:first]
    order = []
    for cycle in range(config.players // config.teams):
        for j in range(config.teams):
            order.append(rotations[(start_team + j) % config.teams][cycle])
    return order


def following_seat(state: State, seat: int) -> int:
    """The seat after ``seat`` in :func:`turn_order` (which repeats)."""
    order = turn_order(state)
    return order[(order.index(seat) + 1) % len(order)]


def _with(state: State, **changes) -> State:
    from dataclasses import replace

    return replace(state, **changes)
