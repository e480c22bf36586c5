# Independent check of a stiction MAT file (written by tests/test_io.c): scipy reads the dsres
# matrices; names, shapes and values must be those the test wrote.
import sys
import scipy.io

m = scipy.io.loadmat(sys.argv[1], chars_as_strings=False)
aclass = ["".join(r).rstrip() for r in m["Aclass"]]
assert aclass[0] == "Atrajectory" and aclass[1] == "1.1" and aclass[3] == "binTrans", aclass
names = ["".join(c).rstrip() for c in m["name"].T]
assert names == ["time", "J1.w", "odd,name"], names
info = m["dataInfo"]
assert info.shape == (4, 3), info.shape
assert list(info[0]) == [0, 2, 2] and list(info[1]) == [1, 2, 3], info
rows = [[0, 10, 0.1], [0.5, 1.0 / 3, -2e-300], [0.7, 2, 1], [0.7, 2, -1], [1, 1e17, 12345.678]]
d2 = m["data_2"]
assert d2.shape == (3, 5), d2.shape
for j, row in enumerate(rows):
    for v in range(3):
        assert d2[v, j] == row[v], (v, j, d2[v, j], row[v])
d1 = m["data_1"]
assert d1.shape == (1, 2) and d1[0, 0] == 0 and d1[0, 1] == 1, d1
print("ok %d variables %d rows" % (len(names), d2.shape[1]))
