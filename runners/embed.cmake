# cmake -DIN=file -DOUT=header -P embed.cmake: the file as `static const char zygote_py[]`.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "/* Generated from runners/zygote.py by runners/embed.cmake. */\n"
    "static const char zygote_py[] = {${bytes}0x00};\n")
