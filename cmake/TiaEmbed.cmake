# tia_embed_text(OUT_VAR INPUT NAME): generates NAME.inc in the current
# binary directory from INPUT (a path relative to the current source
# directory), holding INPUT's text as `static const char *const NAME[]`
# (pieces ending with nullptr), and puts the .inc's path in OUT_VAR for a
# library's source list. Used to compile Python sources into tia.
function(tia_embed_text out_var input name)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/${name}.inc)
  add_custom_command(OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${CMAKE_CURRENT_SOURCE_DIR}/${input}
      -DOUTPUT=${output} -DNAME=${name} -P ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${input} ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
    COMMENT "Embedding ${input}")
  set(${out_var} ${output} PARENT_SCOPE)
endfunction()
