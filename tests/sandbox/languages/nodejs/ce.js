function broken( {
