C     Livermore kernel 21 (matrix product) in a subroutine called many
C     times: the shape bench/unroll.sh times (Koseki et al.: (3,2,2)).
      PROGRAM MM
      INTEGER I, J, R
      REAL PX(25,101), VY(25,25), CX(25,101), S
      DO 1 J = 1, 101
        DO 1 I = 1, 25
          PX(I,J) = 0.0
    1     CX(I,J) = 0.01 * MOD(I + J, 7)
      DO 2 J = 1, 25
        DO 2 I = 1, 25
    2     VY(I,J) = 0.001 * MOD(I - J + 30, 5)
      DO 3 R = 1, 20000
        CALL KERN(PX, VY, CX)
    3 CONTINUE
      S = 0.0
      DO 4 J = 1, 101
        DO 4 I = 1, 25
    4     S = S + PX(I,J)
      PRINT *, S
      END

      SUBROUTINE KERN(PX, VY, CX)
      INTEGER I, J, K
      REAL PX(25,101), VY(25,25), CX(25,101)
      DO 21 K = 1, 25
      DO 21 I = 1, 25
      DO 21 J = 1, 101
        PX(I,J) = PX(I,J) + VY(I,K) * CX(K,J)
   21 CONTINUE
      END
