within Modelica;
package Icons "Empty base classes that only carry graphics in the MSL"
  partial class Package "Icon for a package" end Package;
  partial class ExamplesPackage "Icon for a package of examples" end ExamplesPackage;
  partial model Example "Icon for an example model" end Example;
  partial class InterfacesPackage "Icon for a package of interfaces" end InterfacesPackage;
  partial class SourcesPackage "Icon for a package of sources" end SourcesPackage;
  partial class UtilitiesPackage "Icon for a package of utilities" end UtilitiesPackage;
  partial class TypesPackage "Icon for a package of types" end TypesPackage;
  partial class FunctionsPackage "Icon for a package of functions" end FunctionsPackage;
  partial class VariantsPackage "Icon for a package of variants" end VariantsPackage;
  partial class BasesPackage "Icon for a package of base classes" end BasesPackage;
  partial class UsersGuide "Icon for a user's guide" end UsersGuide;
  partial function Function "Icon for a function" end Function;
  partial record Record "Icon for a record" end Record;
  partial class ObsoleteModel "Marks a class as obsolete" end ObsoleteModel;
end Icons;
