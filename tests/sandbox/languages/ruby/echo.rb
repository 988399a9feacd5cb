$stdout.write($stdin.read)
