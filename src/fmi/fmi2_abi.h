/* The FMI 2.0 binary interface as stiction's FMUs export it: the platform types and the
 * functions' C signatures, written here from the function list and type definitions of the
 * FMI 2.0 standard (not its headers). A shared library of an FMU exports these names
 * unprefixed. Only src/fmi/fmi2.c (the FMU's library) and the tests' importer include it. */
#ifndef ST_FMI_FMI2_ABI_H
#define ST_FMI_FMI2_ABI_H

#include <stddef.h>

typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;

#define fmi2True 1
#define fmi2False 0

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum {
  fmi2DoStepStatus,
  fmi2PendingStatus,
  fmi2LastSuccessfulTime,
  fmi2Terminated
} fmi2StatusKind;

typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment env, fmi2String instanceName,
                                   fmi2Status status, fmi2String category, fmi2String message,
                                   ...);
typedef void *(*fmi2CallbackAllocateMemory)(size_t n, size_t size);
typedef void (*fmi2CallbackFreeMemory)(void *p);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment env, fmi2Status status);

typedef struct {
  const fmi2CallbackLogger logger;
  const fmi2CallbackAllocateMemory allocateMemory;
  const fmi2CallbackFreeMemory freeMemory;
  const fmi2StepFinished stepFinished;
  const fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

typedef struct {
  fmi2Boolean newDiscreteStatesNeeded;
  fmi2Boolean terminateSimulation;
  fmi2Boolean nominalsOfContinuousStatesChanged;
  fmi2Boolean valuesOfContinuousStatesChanged;
  fmi2Boolean nextEventTimeDefined;
  fmi2Real nextEventTime;
} fmi2EventInfo;

/* The functions, as (name, return type, parameter list) for declarations and dlsym tables. */
#define ST_FMI2_FUNCTIONS(X)                                                                  \
  X(fmi2GetTypesPlatform, const char *, (void))                                               \
  X(fmi2GetVersion, const char *, (void))                                                     \
  X(fmi2SetDebugLogging, fmi2Status,                                                          \
    (fmi2Component c, fmi2Boolean loggingOn, size_t nCategories, const fmi2String categories[])) \
  X(fmi2Instantiate, fmi2Component,                                                           \
    (fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,                           \
     fmi2String fmuResourceLocation, const fmi2CallbackFunctions *functions,                  \
     fmi2Boolean visible, fmi2Boolean loggingOn))                                             \
  X(fmi2FreeInstance, void, (fmi2Component c))                                                \
  X(fmi2SetupExperiment, fmi2Status,                                                          \
    (fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance, fmi2Real startTime,   \
     fmi2Boolean stopTimeDefined, fmi2Real stopTime))                                         \
  X(fmi2EnterInitializationMode, fmi2Status, (fmi2Component c))                               \
  X(fmi2ExitInitializationMode, fmi2Status, (fmi2Component c))                                \
  X(fmi2Terminate, fmi2Status, (fmi2Component c))                                             \
  X(fmi2Reset, fmi2Status, (fmi2Component c))                                                 \
  X(fmi2GetReal, fmi2Status,                                                                  \
    (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]))           \
  X(fmi2GetInteger, fmi2Status,                                                               \
    (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Integer value[]))        \
  X(fmi2GetBoolean, fmi2Status,                                                               \
    (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Boolean value[]))        \
  X(fmi2GetString, fmi2Status,                                                                \
    (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2String value[]))         \
  X(fmi2SetReal, fmi2Status,                                                                  \
    (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[]))     \
  X(fmi2SetInteger, fmi2Status,                                                               \
    (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer value[]))  \
  X(fmi2SetBoolean, fmi2Status,                                                               \
    (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Boolean value[]))  \
  X(fmi2SetString, fmi2Status,                                                                \
    (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2String value[]))   \
  X(fmi2GetFMUstate, fmi2Status, (fmi2Component c, fmi2FMUstate * state))                     \
  X(fmi2SetFMUstate, fmi2Status, (fmi2Component c, fmi2FMUstate state))                       \
  X(fmi2FreeFMUstate, fmi2Status, (fmi2Component c, fmi2FMUstate * state))                    \
  X(fmi2SerializedFMUstateSize, fmi2Status,                                                   \
    (fmi2Component c, fmi2FMUstate state, size_t * size))                                     \
  X(fmi2SerializeFMUstate, fmi2Status,                                                        \
    (fmi2Component c, fmi2FMUstate state, fmi2Byte bytes[], size_t size))                     \
  X(fmi2DeSerializeFMUstate, fmi2Status,                                                      \
    (fmi2Component c, const fmi2Byte bytes[], size_t size, fmi2FMUstate *state))              \
  X(fmi2GetDirectionalDerivative, fmi2Status,                                                 \
    (fmi2Component c, const fmi2ValueReference unknowns[], size_t nUnknown,                   \
     const fmi2ValueReference knowns[], size_t nKnown, const fmi2Real dvKnown[],              \
     fmi2Real dvUnknown[]))                                                                   \
  X(fmi2EnterEventMode, fmi2Status, (fmi2Component c))                                        \
  X(fmi2NewDiscreteStates, fmi2Status, (fmi2Component c, fmi2EventInfo * info))               \
  X(fmi2EnterContinuousTimeMode, fmi2Status, (fmi2Component c))                               \
  X(fmi2CompletedIntegratorStep, fmi2Status,                                                  \
    (fmi2Component c, fmi2Boolean noSetFMUStatePriorToCurrentPoint,                           \
     fmi2Boolean * enterEventMode, fmi2Boolean * terminateSimulation))                        \
  X(fmi2SetTime, fmi2Status, (fmi2Component c, fmi2Real time))                                \
  X(fmi2SetContinuousStates, fmi2Status, (fmi2Component c, const fmi2Real x[], size_t nx))    \
  X(fmi2GetDerivatives, fmi2Status, (fmi2Component c, fmi2Real dx[], size_t nx))              \
  X(fmi2GetEventIndicators, fmi2Status, (fmi2Component c, fmi2Real g[], size_t ng))           \
  X(fmi2GetContinuousStates, fmi2Status, (fmi2Component c, fmi2Real x[], size_t nx))          \
  X(fmi2GetNominalsOfContinuousStates, fmi2Status,                                            \
    (fmi2Component c, fmi2Real nominal[], size_t nx))                                         \
  X(fmi2SetRealInputDerivatives, fmi2Status,                                                  \
    (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer order[],   \
     const fmi2Real value[]))                                                                 \
  X(fmi2GetRealOutputDerivatives, fmi2Status,                                                 \
    (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer order[],   \
     fmi2Real value[]))                                                                       \
  X(fmi2DoStep, fmi2Status,                                                                   \
    (fmi2Component c, fmi2Real currentCommunicationPoint, fmi2Real communicationStepSize,     \
     fmi2Boolean noSetFMUStatePriorToCurrentPoint))                                           \
  X(fmi2CancelStep, fmi2Status, (fmi2Component c))                                            \
  X(fmi2GetStatus, fmi2Status, (fmi2Component c, const fmi2StatusKind s, fmi2Status *value))  \
  X(fmi2GetRealStatus, fmi2Status, (fmi2Component c, const fmi2StatusKind s, fmi2Real *value)) \
  X(fmi2GetIntegerStatus, fmi2Status,                                                         \
    (fmi2Component c, const fmi2StatusKind s, fmi2Integer *value))                            \
  X(fmi2GetBooleanStatus, fmi2Status,                                                         \
    (fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value))                            \
  X(fmi2GetStringStatus, fmi2Status, (fmi2Component c, const fmi2StatusKind s, fmi2String *value))

#endif
