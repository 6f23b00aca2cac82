"""The Touché duel's part of the solver layer: what the generic proof search does not
cover for this game (the player factory with proofs)."""
