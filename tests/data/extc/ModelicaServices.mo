// The tool's services as the MSL declares them (tests/test_extc.c load_resource): stiction
// resolves loadResource("modelica://...") itself; this body is the fallback for other names.
package ModelicaServices
  package ExternalReferences
    function loadResource
      input String uri;
      output String fileReference;
    algorithm
      fileReference := uri;
    end loadResource;
  end ExternalReferences;
end ModelicaServices;
