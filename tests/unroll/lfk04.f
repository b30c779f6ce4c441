C     Livermore kernel 4 (banded linear equations), the public kernel's
C     loops and references: Koseki et al., Table 2: (3,2).
      PROGRAM LFK4
      INTEGER N, M, K, J, LW
      PARAMETER (N = 1001, M = (1001 - 7) / 2)
      REAL X(1001), Y(1001), XZ(1500), TEMP
      DO 1 K = 1, 1001
        X(K) = 0.001 * K
    1 Y(K) = 1.0 / K
      DO 2 K = 1, 1500
    2 XZ(K) = 0.5 + 0.0001 * K
      DO 444 K = 7, 1001, M
        LW = K - 6
        TEMP = X(K-1)
        DO 4 J = 5, N, 5
          TEMP = TEMP - XZ(LW) * Y(J)
    4   LW = LW + 1
        X(K-1) = Y(5) * TEMP
  444 CONTINUE
      PRINT *, X(6), X(503), X(1000)
      END
