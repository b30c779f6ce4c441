C     Geometric induction variables: J = 2*J makes J = J0 * 2**r in
C     iteration r (written in closed form in the OpenMP program), and a
C     scaling under a condition, which is none.
      PROGRAM GEOM
      INTEGER I, J, K, M
      INTEGER B(20), C(20)
      DO 1 I = 1, 20
        B(I) = 0
        C(I) = 0
    1 CONTINUE
      J = 1
      DO 10 I = 1, 10
        J = 2*J
        B(I) = J + I
   10 CONTINUE
      K = 3
      DO 20 I = 1, 19, 2
        C(I) = K + I
        K = K*(-2)
   20 CONTINUE
      M = 1
      DO 30 I = 1, 10
        IF (B(I) .GT. 40) M = 3*M
        C(I + 10) = M
   30 CONTINUE
      PRINT *, J, K, M
      PRINT *, B
      PRINT *, C
      END
