within Stiction;
package Translational "Continuous (regularized and dynamic) friction elements for translational systems"
end Translational;
