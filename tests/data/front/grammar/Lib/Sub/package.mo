within Lib;
package Sub
  package Air
    constant Real R = 287.0;
  end Air;
end Sub;
