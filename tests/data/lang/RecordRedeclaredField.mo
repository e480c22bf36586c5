// A record parameter whose class redeclares the record fields of its base through extends
// (Batteries' TransientData.StackData: "cannot take field 'kDegraded' of this record value").
package RecordRedeclaredField
  record Cell
    parameter Real Q = 1;
    parameter Real OCV[:, 2] = [0, 1; 1, 2];
  end Cell;
  record RC
    parameter Real Rr;
    parameter Real C;
  end RC;
  record TCell
    extends Cell;
    parameter Integer nRC = 1;
    parameter RC rc[nRC] = {RC(Rr = 0, C = 0)};
  end TCell;
  record Base
    parameter Integer Ns;
    parameter Integer Np;
    parameter Integer k[:, 2] = {{0, 0}};
    replaceable parameter Cell c0;
    replaceable parameter Cell cs[Ns, Np] = {{c0 for kp in 1:Np} for ks in 1:Ns};
  end Base;
  record Stack
    extends Base(redeclare TCell c0, redeclare TCell cs);
  end Stack;
  model User
    replaceable parameter Base sd;
    Real y = sd.cs[1, 1].Q * time + sd.k[1, 1];
  end User;
  model M
    parameter TCell c(Q = 3, rc = {RC(Rr = 1, C = 2)});
    parameter Stack sd(Ns = 2, Np = 1, k = [1, 1], c0 = c);
    User u(redeclare Stack sd, sd = sd);
    Real z = u.sd.cs[2, 1].rc[1].C * time;
  end M;
end RecordRedeclaredField;
