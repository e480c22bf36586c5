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
int st_cmd_study(int argc, char **argv);    /* friction-law study */

#endif
