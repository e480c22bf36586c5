within Pkg;
package Interfaces
end Interfaces;
