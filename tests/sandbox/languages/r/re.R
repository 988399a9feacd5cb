quit(status = 3)
