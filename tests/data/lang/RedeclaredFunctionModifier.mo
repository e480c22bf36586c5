// A function redeclared in the modifier of a component, with a modifier that reads a
// parameter of the model where the redeclaration is written (declared after the component):
// the modifier's value is looked up there, not in the component.
package RedeclaredFunctionModifier
  partial function Field
    input Real r;
    output Real g;
  end Field;
  function linearField
    extends Field;
    input Real k = 1;
  algorithm
    g := k*r;
  end linearField;
  model Source
    replaceable function field = Field;
    parameter Real k = 100 "a parameter of the same name as the outer one";
    Real r = 1 + time;
    Real g = field(r);
  end Source;
  model Test
    Source s(redeclare function field = linearField(k = gain));
    Real outside = s.field(2) "the component's function called from outside it";
    parameter Real gain = 3;
  end Test;
end RedeclaredFunctionModifier;
