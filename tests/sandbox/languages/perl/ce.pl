sub broken {
