# cmake -DTEG=<teg> -DOUT=<file> -DARGS="validate --json ..." [-DNEEDS=<file>] -P run_to_file.cmake
# Runs `teg ARGS` and keeps its standard output in OUT, written whole (a temporary file renamed
# into place) and only when teg completed: exit 0, or 1 (`teg validate` without --strict exits 0;
# 1 is a completed run that reports a miss). The whole-validation fixtures (CMakeLists.txt) use it
# so that the tests reading a full `teg validate` run share one run instead of each making its own.
foreach(v TEG OUT ARGS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_to_file.cmake: -D${v}=... is required")
  endif()
endforeach()
file(REMOVE "${OUT}")
# As the tests that read OUT do (they skip without nvcc): nothing to run without the compiler.
if(DEFINED NEEDS AND NOT EXISTS "${NEEDS}" AND NOT DEFINED ENV{CUDA_HOME})
  message(STATUS "skipped: ${NEEDS} not found and CUDA_HOME not set")
  return()
endif()
separate_arguments(args UNIX_COMMAND "${ARGS}")
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
execute_process(COMMAND "${TEG}" ${args} OUTPUT_FILE "${OUT}.partial" ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT status EQUAL 0 AND NOT status EQUAL 1)
  file(REMOVE "${OUT}.partial")
  message(FATAL_ERROR "teg ${ARGS} exited with '${status}':\n${err}")
endif()
file(RENAME "${OUT}.partial" "${OUT}")
message(STATUS "teg ${ARGS}: exit ${status}, output in ${OUT}")
