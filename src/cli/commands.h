/* Subcommands of the `stiction` command. Each takes the arguments after its name
 * (argv[0] is the subcommand name) and returns the process exit status. */
#ifndef ST_CLI_COMMANDS_H
#define ST_CLI_COMMANDS_H

#include "util/diag.h" /* ST_MSG_MAX for the messages of the library calls */

int st_cmd_demo(int argc, char **argv);     /* built-in C models (runtime) */
int st_cmd_plot(int argc, char **argv);     /* gnuplot a result file */
int st_cmd_parse(int argc, char **argv);    /* syntax check of .mo files */
int st_cmd_flatten(int argc, char **argv);  /* print the flat model */
int st_cmd_simulate(int argc, char **argv); /* compile and simulate Modelica */
int st_cmd_compare(int argc, char **argv);  /* csv-compare tube rule */
int st_cmd_tamsi(int argc, char **argv);    /* one TAMSI step from JSON */
int st_cmd_bam(int argc, char **argv);      /* BAM rollouts and MAE */
int st_cmd_bam_fit(int argc, char **argv);  /* BAM identification (`bam fit`) */
int st_cmd_study(int argc, char **argv);    /* friction-law study */
int st_cmd_sweep(int argc, char **argv);    /* parameter sweeps on all cores */
int st_cmd_fmu(int argc, char **argv);      /* FMI 2.0 export */

/* Does a positional argument name a model file (ends in .mo, or exists: a file or a package
 * directory) rather than a class? simulate and flatten take either. */
int st_cli_is_model_file(const char *arg);
/* The positional arguments MODEL.mo [CLASS] | CLASS from optind on (simulate, fmu): 0, or
 * ST_CLI_EXIT_USAGE after saying why ("cmd: ..."). */
int st_cli_model_positionals(const char *cmd, int argc, char **argv, const char **file,
                             const char **class_name);

/* "cmd: NAME: reason" for an output that could not be opened, NAME being "standard output"
 * for "-" (whose /dev/stdout is missing when the descriptor is closed). Call with the errno
 * of the failure still set. */
void st_cli_open_failed(const char *cmd, const char *path);

#endif
