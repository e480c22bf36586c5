within Pkg;
package Examples
end Examples;
