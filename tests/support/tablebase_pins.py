"""SHA-256 of tablebase split files the tests pin: bytes that brute force or the plain
row sweep confirmed, so that a test comparing two builds can build one of them."""

K1_DIGESTS = {
    "prim-terz-set": {
        (0, 0): "9d1125e3205329d8e77bd7e2c275aac389bc7a14437f8f89931113c922df0c46",
        (0, 1): "ae8df7d985a298f568b3aa3cb1104f1a939115b59b52a25aefa5b722131cef7e",
        (1, 0): "94894b4b8be52445a6ba286c9c585e9652b77fdfa990518129305bdd69bd579a",
        (1, 1): "90a6e0143df90bac405b4397136f43cdc05ab4ccf7055b84dd1bb13de2b6d74e",
    },
    "einsteiger": {
        (0, 0): "b0ef68ef2f07dfac17415efd916b3572d2ba6841a45edd922d1c755c56491d68",
        (0, 1): "4ed8ebd2138d542e45d6982362af7a14a96e488604a4d41536431e0608b7ee6e",
        (1, 0): "1e54db214304231e759f55a95538e63e3a57aa8f80847624bcb380504bfc9591",
        (1, 1): "ad9431d0a40ce6d595928baaa0bebe091360e63be6dae6d3994ac31e5e782ff1",
    },
    "verteidigung": {
        (0, 0): "039115aeee4d40fd24db4836ebc9824d7a63bc258b96f2b13abc1849bf8420e3",
        (0, 1): "dfdf15b07bcc8a25e9784efe40271f73d83c6d6abbd3c78b37e1a71664010c1e",
        (1, 0): "087eba6d5d5a862d07643b8d90d9cff552e272dc614dbfc78f0ea707b856bba5",
        (1, 1): "411872385e6ff600f6042d519cfd814539f30805f1d1f9b41705c86b03c04cc6",
    },
}
"""The K <= 1 tables of the three card sets of test_battleklinge_tablebase.py, counted
there by brute force (prim-terz-set and verteidigung in the slow run)."""
