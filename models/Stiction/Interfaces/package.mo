within Stiction;
package Interfaces "Partial classes shared by the Stiction friction elements"
end Interfaces;
