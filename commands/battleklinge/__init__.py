"""The command line of battleklinge: its group and every command of its own."""
