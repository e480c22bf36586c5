# The `stiction` command: one file per subcommand, dispatched from main.c.
stiction_SOURCES += src/cli/main.c src/cli/commands.h
stiction_SOURCES += src/cli/cmd_demo.c
stiction_SOURCES += src/cli/cmd_plot.c
stiction_SOURCES += src/cli/cmd_parse.c
stiction_SOURCES += src/cli/cmd_flatten.c
stiction_SOURCES += src/cli/cmd_simulate.c src/cli/sim_common.c src/cli/sim_common.h
stiction_SOURCES += src/cli/cmd_compare.c
stiction_SOURCES += src/cli/cmd_tamsi.c
stiction_SOURCES += src/cli/cmd_bam.c src/cli/cmd_bam_fit.c
stiction_SOURCES += src/cli/cmd_study.c src/cli/study.h src/cli/study_modelica.c
stiction_SOURCES += src/cli/cmd_sweep.c src/cli/sweep.c src/cli/sweep.h
stiction_SOURCES += src/cli/cmd_fmu.c
