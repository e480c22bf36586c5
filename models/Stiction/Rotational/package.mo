within Stiction;
package Rotational "Continuous (regularized and dynamic) friction elements for rotational drivetrains"
end Rotational;
