# launchopt_transform_sources(<target>
#   SOURCES <file.cu>...         CUDA sources to transform, relative to the current
#                                source directory or absolute
#   [PASSES <option>...]         launchopt's options, e.g. --threshold --aggregate=grid
#   [DEFINES <NAME[=VALUE]>...]  macros of the transformed sources, for launchopt's parse
#                                and for their compilation (LAUNCHOPT_THRESHOLD=128)
#   [COMPILE_FLAGS <flag>...])   more flags for launchopt's parse only (what follows `--`)
#
# At build time each source becomes
#   ${CMAKE_CURRENT_BINARY_DIR}/launchopt/<target>/<source path>
# with its report beside it (<name>.report.txt); both are made again when the
# source or launchopt changes. The transformed files join <target>'s sources
# (do not list the originals there too) and compile with the DEFINES and the
# original's directory on the include path. launchopt parses each source with
# <target>'s include directories and compile definitions. The runtime include
# directory goes on <target>, for outputs made with --include-runtime.
# A source outside the current source directory keeps only its file name.
function(launchopt_transform_sources target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;PASSES;DEFINES;COMPILE_FLAGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "launchopt_transform_sources: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "launchopt_transform_sources: '${target}' is not a target")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "launchopt_transform_sources: no SOURCES given")
  endif()

  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(definitions "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(parse_flags
      "$<$<BOOL:${includes}>:-I$<JOIN:${includes},$<SEMICOLON>-I>>"
      "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},$<SEMICOLON>-D>>")
  foreach(define IN LISTS ARG_DEFINES)
    list(APPEND parse_flags "-D${define}")
  endforeach()
  list(APPEND parse_flags ${ARG_COMPILE_FLAGS})
  string(JOIN " " passes_text ${ARG_PASSES})
  file(GLOB runtime_headers "${LAUNCHOPT_RUNTIME_INCLUDE_DIR}/launchopt/*")

  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(input "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${input}")
    if(relative MATCHES "^\\.\\./")
      get_filename_component(relative "${input}" NAME)
    endif()
    set(output "${CMAKE_CURRENT_BINARY_DIR}/launchopt/${target}/${relative}")
    get_filename_component(output_dir "${output}" DIRECTORY)
    get_filename_component(output_stem "${output}" NAME_WLE)
    set(report "${output_dir}/${output_stem}.report.txt")
    get_filename_component(input_dir "${input}" DIRECTORY)
    add_custom_command(
      OUTPUT "${output}" "${report}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${output_dir}"
      COMMAND "$<TARGET_FILE:launchopt::launchopt>" ${ARG_PASSES} "${input}" -o "${output}"
              "--report=${report}" --quiet -- ${parse_flags}
      DEPENDS "${input}" "$<TARGET_FILE:launchopt::launchopt>" ${runtime_headers}
      COMMENT "launchopt ${passes_text} ${relative}"
      VERBATIM COMMAND_EXPAND_LISTS)
    set_source_files_properties("${output}" PROPERTIES
      COMPILE_DEFINITIONS "${ARG_DEFINES}"
      INCLUDE_DIRECTORIES "${input_dir}")
    target_sources(${target} PRIVATE "${output}")
  endforeach()
  target_include_directories(${target} PRIVATE "${LAUNCHOPT_RUNTIME_INCLUDE_DIR}")
endfunction()
