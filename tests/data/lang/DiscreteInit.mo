// An initial equation on a discrete variable that the equations define through a chain
// ending in pre() (the pattern of StateGraph's InitialStep): active = true determines
// pre(newActive). Closed form: active until the step leaves at t = 0.5, then inactive.
model DiscreteInit
  Boolean newActive(start = false);
  Boolean localActive;
  Boolean active;
  Boolean leave = time > 0.5;
initial equation
  pre(newActive) = pre(localActive);
  active = true;
equation
  localActive = pre(newActive);
  active = localActive;
  newActive = if leave then false else localActive;
end DiscreteInit;
