# compile tests:
#   test_compile            the equation compiler on hand-built flat models (callbacks called directly)
#   test_compile_sim        whole simulations of compiled models through the runtime
#   test_compile_cli        models from Modelica text through `stiction simulate`
#   test_compile_functions  user functions called from equations (OP_CALL): closed forms, an MSL example
#   test_lang               language features (terminal(), algorithm sections, tuple equations, delay)
#   test_alias              alias elimination (src/compile/alias.c): counts, signs, start attributes
#   test_burridge           Stiction.Examples.BurridgeKnopoff (arrays of stick-slip elements)
#   test_pattern            the df/dy pattern of compiled models against difference quotients
#   test_specialize         programs specialized between events and tapes against the compiled ones;
#                           evaluations near the last full one (partial.c) against full ones
#   test_runerrors          NaN/Inf and Newton failures located at the equation, rows kept
#   test_func_compile       the function compiler (func_compile.c, func_vm.c) against the tree walker
#   test_external           external functions stiction provides (src/func/external.c)
#   test_lang_func          functions, expressions and equations the genuine MSL needs
#   test_extc               external C functions models bring: building, caching, calling, errors
#   test_hybrid             hybrid semantics the MSL references rely on (initial events, pre(), mixed systems)
#   test_clocks             synchronous Modelica: clocks, sampled partitions (src/compile/clocks.c)
#   test_strings            String values: String(), texts passed to C, messages built from values
check_PROGRAMS += tests/test_compile tests/test_compile_sim tests/test_compile_cli \
	tests/test_compile_functions tests/test_lang tests/test_alias tests/test_burridge \
	tests/test_pattern tests/test_specialize tests/test_runerrors tests/test_func_compile \
	tests/test_external tests/test_lang_func tests/test_extc tests/test_hybrid tests/test_clocks \
	tests/test_strings
