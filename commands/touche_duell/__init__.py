"""The command line of touche-duell: its group and every command of its own."""
