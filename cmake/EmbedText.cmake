# Turns a text file into a C++ header holding it as a raw string literal:
#   cmake -DINPUT=in.py -DOUTPUT=out.inc -DNAME=Identifier -P EmbedText.cmake
# The literal is split into pieces, since compilers limit the length of one
# string literal.
file(READ "${INPUT}" text)
string(FIND "${text}" ")tia_embed\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw string delimiter )tia_embed\"")
endif()
string(LENGTH "${text}" length)
set(out "// Generated from ${INPUT} by cmake/EmbedText.cmake; do not edit.\n")
string(APPEND out "static const char *const ${NAME}[] = {\n")
set(pos 0)
while(pos LESS length)
  string(SUBSTRING "${text}" ${pos} 8000 piece)
  string(APPEND out "R\"tia_embed(${piece})tia_embed\",\n")
  math(EXPR pos "${pos} + 8000")
endwhile()
string(APPEND out "nullptr};\n")
file(WRITE "${OUTPUT}.tmp" "${out}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
