# Write every fenced ```c block of a Markdown file to its own C file:
#   awk -v out=DIR -v name=README.md -f c_blocks.awk README.md
# makes DIR/example_1.c, DIR/example_2.c, ... Each starts with a #line
# directive, so a compiler error names the Markdown file and its line.
/^```c[[:space:]]*$/ && !in_block {
    in_block = 1
    n++
    file = out "/example_" n ".c"
    printf "#line %d \"%s\"\n", NR + 1, name > file
    next
}
/^```/ && in_block { in_block = 0; close(file); next }
in_block { print > file }
END {
    if (in_block) { print name ": a ```c block is never closed" > "/dev/stderr"; exit 1 }
}
