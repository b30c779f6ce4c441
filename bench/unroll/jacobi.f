C     Jacobi iteration: a five-point stencil and the copy back in one
C     time loop (the usual shape, as in the public jacobi.f90 of
C     MmadbugG/TaskDash): the fourth shape bench/unroll.sh times. The time
C     loop is not permutable; the nests inside it are bands of their own.
      PROGRAM JACOBI
      INTEGER I, J
      REAL A(200,200), B(200,200), S
      DO 1 J = 1, 200
        DO 1 I = 1, 200
          A(I,J) = 0.01 * MOD(I + 3*J, 17)
    1     B(I,J) = 0.0
      CALL KERN(A, B, 40000)
      S = 0.0
      DO 3 J = 1, 200
        DO 3 I = 1, 200
    3     S = S + A(I,J)
      PRINT *, S
      END

      SUBROUTINE KERN(A, B, NT)
      INTEGER I, J, IT, NT
      REAL A(200,200), B(200,200)
      DO 30 IT = 1, NT
        DO 10 J = 2, 199
          DO 10 I = 2, 199
            B(I,J) = 0.25 * (A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1))
   10   CONTINUE
        DO 20 J = 2, 199
          DO 20 I = 2, 199
            A(I,J) = B(I,J)
   20   CONTINUE
   30 CONTINUE
      END
