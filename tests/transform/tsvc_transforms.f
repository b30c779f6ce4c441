C     Loops of the TSVC families a loop transformation parallelizes
C     (statement reordering, distribution, node splitting, alignment of
C     wrap-around scalars, interchange, skewing), and neighbours that no
C     transformation of kaiseki's makes parallel. One subroutine per
C     TSVC loop, on arrays in COMMON; each prints a checksum. Values are
C     small integers held in REALs: sums are exact in any order.
      PROGRAM TSVCT
      CALL S211
      CALL S212
      CALL S1213
      CALL S221
      CALL S222
      CALL S2233
      CALL S2244
      CALL S254
      CALL S291
      CALL S1119
      CALL S241
      CALL S243
      CALL S1244
      CALL S252
      CALL S255
      CALL S261
      CALL S2111
      END

      SUBROUTINE INIT
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      DO 1 I = 1, N
        A(I) = MOD(I * 7, 11)
        B(I) = MOD(I * 5, 13) - 6
        C(I) = MOD(I, 3)
        D(I) = MOD(I, 4) - 1
        E(I) = MOD(I * 3, 7)
    1 CONTINUE
      DO 3 J = 1, N
        DO 2 I = 1, N
          AA(I,J) = MOD(I + J, 5)
          BB(I,J) = MOD(I * J, 3)
          CC(I,J) = MOD(I + 2 * J, 4)
    2   CONTINUE
    3 CONTINUE
      END

      SUBROUTINE CHECK(NAME)
      CHARACTER*(*) NAME
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      REAL S
      INTEGER I, J
      S = 0
      DO 2 J = 1, N
        S = S + MOD(A(J) + 2 * B(J) + 3 * C(J) + 5 * D(J) + 7 * E(J),
     &      1000.0)
        DO 1 I = 1, N
          S = S + MOD(AA(I,J) + 2 * BB(I,J) + 3 * CC(I,J), 1000.0)
    1   CONTINUE
    2 CONTINUE
      PRINT *, NAME, S
      END

C     s211: statement reordering, then distribution
      SUBROUTINE S211
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      CALL INIT
      DO 10 I = 2, N - 1
        A(I) = B(I - 1) + C(I) * D(I)
        B(I) = B(I + 1) - E(I) * D(I)
   10 CONTINUE
      CALL CHECK('s211')
      END

C     s212: the read of A(I+1) before the next iteration writes it
      SUBROUTINE S212
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      CALL INIT
      DO 10 I = 1, N - 1
        A(I) = A(I) * C(I)
        B(I) = B(I) + A(I + 1) * D(I)
   10 CONTINUE
      CALL CHECK('s212')
      END

C     s1213: a flow and an anti dependence of distance 1, one alignment
      SUBROUTINE S1213
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      CALL INIT
      DO 10 I = 2, N - 1
        A(I) = B(I - 1) + C(I)
        B(I) = A(I + 1) * D(I)
   10 CONTINUE
      CALL CHECK('s1213')
      END

C     s221: distribution: a parallel statement and a recurrence
      SUBROUTINE S221
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      CALL INIT
      DO 10 I = 2, N
        A(I) = A(I) + C(I) * D(I)
        B(I) = MOD(B(I - 1) + A(I) + D(I), 17.0)
   10 CONTINUE
      CALL CHECK('s221')
      END

C     s222: distribution: a recurrence between two parallel statements
      SUBROUTINE S222
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      CALL INIT
      DO 10 I = 2, N
        A(I) = A(I) + B(I) * C(I)
        E(I) = MOD(E(I - 1) * E(I - 1), 19.0)
        A(I) = A(I) - B(I) * C(I)
   10 CONTINUE
      CALL CHECK('s222')
      END

C     s2233: distribution of an outer loop over two inner ones
      SUBROUTINE S2233
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 30 I = 2, N
        DO 10 J = 2, N
          AA(J,I) = MOD(AA(J - 1,I) + CC(J,I), 23.0)
   10   CONTINUE
        DO 20 J = 2, N
          BB(I,J) = MOD(BB(I - 1,J) + CC(I,J), 29.0)
   20   CONTINUE
   30 CONTINUE
      CALL CHECK('s2233')
      END

C     s2244: node splitting: two writes of one element, aligned
      SUBROUTINE S2244
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      CALL INIT
      DO 10 I = 1, N - 1
        A(I + 1) = B(I) + E(I)
        A(I) = B(I) + C(I)
   10 CONTINUE
      CALL CHECK('s2244')
      END

C     s254: a wrap-around scalar carried to the next iteration
      SUBROUTINE S254
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      REAL X
      CALL INIT
      X = B(N)
      DO 10 I = 1, N
        A(I) = (B(I) + X) * 2
        X = B(I)
   10 CONTINUE
      CALL CHECK('s254')
      PRINT *, X
      END

C     s291: a wrap-around index, the loop peeled by alignment
      SUBROUTINE S291
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, IM1
      CALL INIT
      IM1 = N
      DO 10 I = 1, N
        A(I) = (B(I) + B(IM1)) * 3
        IM1 = I
   10 CONTINUE
      CALL CHECK('s291')
      END

C     s1119: the parallel loop is the inner one: interchange
      SUBROUTINE S1119
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 20 J = 2, N
        DO 10 I = 1, N
          AA(I,J) = MOD(AA(I,J - 1) + BB(I,J), 31.0)
   10   CONTINUE
   20 CONTINUE
      CALL CHECK('s1119')
      END

C     s241: a cycle of a flow and an anti dependence: node splitting
      SUBROUTINE S241
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      CALL INIT
      DO 10 I = 1, N - 1
        A(I) = B(I) * C(I) * D(I)
        B(I) = MOD(A(I) * A(I + 1) * D(I), 37.0)
   10 CONTINUE
      CALL CHECK('s241')
      END

C     s243: anti dependent on its own next instance: node splitting
      SUBROUTINE S243
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      CALL INIT
      DO 10 I = 1, N - 1
        A(I) = B(I) + C(I) * D(I)
        B(I) = A(I) + D(I) * E(I)
        A(I) = MOD(B(I) + A(I + 1) * D(I), 41.0)
   10 CONTINUE
      CALL CHECK('s243')
      END

C     s1244: a flow and an anti dependence: node splitting
      SUBROUTINE S1244
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      CALL INIT
      DO 10 I = 1, N - 1
        A(I) = B(I) + C(I) * C(I) + B(I) * B(I) + C(I)
        D(I) = A(I) + A(I + 1)
   10 CONTINUE
      CALL CHECK('s1244')
      END

C     s252: a scalar carried to the next iteration beside a temporary
      SUBROUTINE S252
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      REAL S, T
      CALL INIT
      T = 0
      DO 10 I = 1, N
        S = B(I) * C(I)
        A(I) = S + T
        T = S
   10 CONTINUE
      CALL CHECK('s252')
      END

C     s255: two wrap-around scalars (two iterations to peel)
      SUBROUTINE S255
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      REAL X, Y
      CALL INIT
      X = B(N)
      Y = B(N - 1)
      DO 10 I = 1, N
        A(I) = (B(I) + X + Y) * 3
        Y = X
        X = B(I)
   10 CONTINUE
      CALL CHECK('s255')
      END

C     s261: a temporary assigned twice: distribution, T private in each
      SUBROUTINE S261
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I
      REAL T
      CALL INIT
      DO 10 I = 2, N
        T = A(I) + B(I)
        A(I) = T + C(I - 1)
        T = C(I) * D(I)
        C(I) = T
   10 CONTINUE
      CALL CHECK('s261')
      END

C     s2111: a wavefront: skewing
      SUBROUTINE S2111
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 20 J = 2, N
        DO 10 I = 2, N
          AA(I,J) = MOD(AA(I - 1,J) + AA(I,J - 1), 43.0)
   10   CONTINUE
   20 CONTINUE
      CALL CHECK('s2111')
      END
