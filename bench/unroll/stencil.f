C     A 2-D five-point stencil in a subroutine called many times: the
C     third shape bench/unroll.sh times.
      PROGRAM STENCL
      INTEGER I, J, R
      REAL A(200,200), B(200,200), S
      DO 1 J = 1, 200
        DO 1 I = 1, 200
          A(I,J) = 0.01 * MOD(I + 3*J, 17)
    1     B(I,J) = 0.0
      DO 2 R = 1, 30000
        CALL KERN(A, B)
    2 CONTINUE
      S = 0.0
      DO 3 J = 1, 200
        DO 3 I = 1, 200
    3     S = S + B(I,J)
      PRINT *, S
      END

      SUBROUTINE KERN(A, B)
      INTEGER I, J
      REAL A(200,200), B(200,200)
      DO 10 J = 2, 199
        DO 10 I = 2, 199
          B(I,J) = B(I,J) + 0.2 * (A(I,J) + A(I-1,J) + A(I+1,J)
     &             + A(I,J-1) + A(I,J+1))
   10 CONTINUE
      END
