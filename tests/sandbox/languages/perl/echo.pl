local $/;
print <STDIN>;
