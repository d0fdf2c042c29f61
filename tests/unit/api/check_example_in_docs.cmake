# Fails unless DOC holds the text of EXAMPLE verbatim: docs/api.md shows the example that ctest compiles and runs.
file(READ "${EXAMPLE}" example)
file(READ "${DOC}" doc)
string(FIND "${doc}" "${example}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DOC} does not hold ${EXAMPLE} verbatim: copy the file's text into its ```cpp block")
endif()
