C     Loops the parallelization judge (tests/parallel_bruteforce.rs) once
C     found called parallel wrongly, kept as regression tests.
      PROGRAM REGR
      INTEGER N, I, J, M, IDX
      REAL A(10), X, S
      N = 10
      DO 1 I = 1, N
        A(I) = MOD(I, 3)
    1 CONTINUE
C     A max with location by .GE.: the sequential loop keeps the last of
C     equal values, a parallel maxloc the first.
      X = -1
      IDX = 0
      DO 10 I = 1, N
        IF (A(I) .GE. X) THEN
          X = A(I)
          IDX = I
        ENDIF
   10 CONTINUE
C     The same test without a location is a max.
      DO 11 I = 1, N
        IF (A(I) .GE. X) X = A(I)
   11 CONTINUE
C     One iteration carries nothing, but OpenMP makes the inner DO
C     variable private: its value after the loop must be copied out.
      S = 0
      DO 12 I = 1, 1
        DO 13 J = 1, N
          A(J) = A(J) + 1
   13   CONTINUE
   12 CONTINUE
C     A counter read nowhere else: a sum, not also an induction variable.
      M = 0
      DO 14 I = 1, N
        M = M + 1
   14 CONTINUE
      PRINT *, X, IDX, J, M, SUM(A)
      END
