C     Nests inside time loops: a nest under a loop that is not fully
C     permutable is a band of its own.
      PROGRAM TSTEP
      INTEGER N, I, J, IT, NT
      REAL A(0:101,0:101), B(0:101,0:101), G(0:101), S
      READ (*,*) N
      NT = 3
      DO J = 0, 101
        DO I = 0, 101
          A(I,J) = REAL(MOD(3*I + 5*J, 13))
          B(I,J) = 0.0
        END DO
        G(J) = REAL(MOD(J, 7))
      END DO
C     Jacobi: a stencil, a copy-back and a diagonal nest per time step.
      DO IT = 1, NT
        DO J = 1, N
          DO I = 1, N
            B(I,J) = (A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1))*0.25
          END DO
        END DO
        DO J = 1, N
          DO I = 1, N
            A(I,J) = B(I,J)
          END DO
        END DO
        DO I = 1, N
          G(I) = G(I) + A(I,I)
        END DO
      END DO
C     Gauss-Seidel in place: one nest; the time loop carries (<,=,>).
      DO IT = 1, NT
        DO J = 1, N
          DO I = 1, N
            A(I,J) = (A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1))*0.25
          END DO
        END DO
      END DO
C     A DO WHILE time loop.
      IT = 0
      DO WHILE (IT .LT. NT)
        IT = IT + 1
        DO J = 1, N
          DO I = 1, N
            B(I,J) = A(I,J) + 0.5*B(I,J) + G(J)
          END DO
        END DO
      END DO
C     A sum over the whole nest: only the innermost loop is a band; it
C     ends on the CONTINUE of the loops around it.
      S = 0.0
      DO 50 IT = 1, NT
        DO 50 J = 1, N
          DO 50 I = 1, N
            S = S + A(I,J)*0.5
   50 CONTINUE
C     The inner loop ends on an assignment that also ends the time loop.
      DO 60 IT = 1, NT
        DO 60 I = 1, N
   60 G(I) = G(I-1) + G(I)*0.5
      PRINT *, SUM(A), SUM(B), SUM(G), S, IT, I, J
      END
