C     Livermore kernel 21 (matrix product), the public kernel's loops and
C     references: Koseki et al., Table 2: (3,2,2); fig. 11.
      PROGRAM LFK21
      INTEGER N, K, I, J
      PARAMETER (N = 101)
      REAL PX(25,101), VY(25,25), CX(25,101)
      DO 1 J = 1, 101
        DO 1 I = 1, 25
          PX(I,J) = 0.0
    1     CX(I,J) = 0.01 * (I + J)
      DO 2 K = 1, 25
        DO 2 I = 1, 25
    2     VY(I,K) = 0.001 * (I - K)
      DO 21 K = 1, 25
      DO 21 I = 1, 25
      DO 21 J = 1, N
        PX(I,J) = PX(I,J) + VY(I,K) * CX(K,J)
   21 CONTINUE
      PRINT *, PX(1,1), PX(13,50), PX(25,101)
      END
