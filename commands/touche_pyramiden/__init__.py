"""The command line of touche-pyramiden: its group and every command of its own."""
