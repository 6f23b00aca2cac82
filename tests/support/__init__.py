"""What the tests share: helpers that start servers, browsers, clusters and the command
line, fixtures' builders, and the scripts that the tests run in subprocesses."""
