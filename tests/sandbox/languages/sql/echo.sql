-- SQL reads no input of its own: the shell's .import streams the output of a command (cat,
-- which inherits the program's stdin) into a table, a row a line.
CREATE TABLE lines(line TEXT);
.mode list
.separator "\037" "\n"
.import "|cat" lines
SELECT line FROM lines ORDER BY rowid;
