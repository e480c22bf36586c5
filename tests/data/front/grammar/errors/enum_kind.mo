// expect: 2:7: an enumeration must be declared with 'type'
model E = enumeration(a, b);
