# BAM module (Better Actuator Models, doc/bam.md): servo models, friction budgets M1..M6,
# the discrete reference simulator, log/parameter IO, MAE evaluation and identification (CMA-ES).
pkginclude_HEADERS += include/stiction/bam.h
libstiction_core_la_SOURCES += \
	src/bam/bam_model.c src/bam/bam_io.c src/bam/bam_names.c \
	src/bam/bam_eval.c src/bam/bam_eval.h \
	src/bam/bam_fit.c src/bam/bam_fit.h src/bam/cmaes.c src/bam/cmaes.h
