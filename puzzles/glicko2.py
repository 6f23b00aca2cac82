"""Glicko-2, as Glickman defines it in "Example of the Glicko-2 system" (2012).

One rating period: a rating (r, RD, volatility sigma) and the period's games
against opponents of known rating and RD give the new rating.  The steps and
their numbers follow the paper (step 5 is the Illinois iteration for the new
volatility, tolerance 1e-6); ``tests/unit/test_rating_panel.py`` runs the paper's worked
example.  A rating without games in the period only grows its RD (step 6).

Written here rather than taken from PyPI: the ``glicko2`` package (2.1.0) offers a
mutable player object without types and changes its state in place, while the
whole algorithm is these few tested lines, pure functions of immutable values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's scale factor: 400 / ln 10."""
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5
"""The system constant that limits volatility changes (the paper's example: 0.5)."""
EPSILON = 1e-6


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale: rating, rating deviation, volatility."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


@dataclass(frozen=True)
class Game:
    """One game of the period from the rated side: the opponent and the score
    (1 win, 0 loss, 0.5 draw)."""

    opponent: Glicko
    score: float


def g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_opponent: float, phi_opponent: float) -> float:
    """The expected score against an opponent (Glicko-2 scale)."""
    return 1.0 / (1.0 + math.exp(-g(phi_opponent) * (mu - mu_opponent)))


def win_probability(player: Glicko, opponent: Glicko) -> float:
    """The expected score of ``player`` against ``opponent``, the opponent's RD
    widening the curve as Glicko-2 does."""
    return expected(player.mu, opponent.mu, opponent.phi)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        return top / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, games: Sequence[Game], tau: float = TAU) -> Glicko:
    """The rating after one period with ``games`` (steps 2 to 8 of the paper).

    >>> round(rate(Glicko(), []).rd, 2)  # no games: only the deviation grows
    350.16
    """
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not games:
        return Glicko(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    v_inverse = 0.0
    improvement = 0.0
    for game in games:
        g_j = g(game.opponent.phi)
        e_j = expected(mu, game.opponent.mu, game.opponent.phi)
        v_inverse += g_j * g_j * e_j * (1.0 - e_j)
        improvement += g_j * (game.score - e_j)
    v = 1.0 / v_inverse
    delta = v * improvement
    new_sigma = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko(DEFAULT_RATING + SCALE * new_mu, SCALE * new_phi, new_sigma)
