# Write every fenced C block of a Markdown file to its own C file:
#   awk -v out=DIR -v name=README.md [-v lang="c board"] -f c_blocks.awk README.md
# makes DIR/example_1.c, DIR/example_2.c, ... from the blocks whose info
# string is exactly LANG ("c" unless given: "c board" marks a block that
# needs a board, docs/guide.md). Each starts with a #line directive, so a
# compiler error names the Markdown file and its line.
BEGIN { if (lang == "") lang = "c"; open_re = "^```" lang "[[:space:]]*$" }
$0 ~ open_re && !in_block && !in_other {
    in_block = 1
    n++
    file = out "/example_" n ".c"
    printf "#line %d \"%s\"\n", NR + 1, name > file
    next
}
/^```/ && in_block { in_block = 0; close(file); next }
/^```/ && !in_block { in_other = !in_other; next }  # another language's block
in_block { print > file }
END {
    if (in_block) { print name ": a ```" lang " block is never closed" > "/dev/stderr"; exit 1 }
}
