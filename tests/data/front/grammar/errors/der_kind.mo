// expect: 2:7: a 'der' class must be a function
model D = der(f, x);
