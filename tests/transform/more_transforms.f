C     Loops for peeling, fusion, collapse and stride-1 interchange
C     (rules/dl/transform.dl), each next to one that must not be
C     transformed; PEELR runs a peeled loop of a trip count read at run
C     time (0, 1 and 60). Arrays in COMMON; each subroutine prints a
C     checksum. Values are small integers held in REALs: sums are exact
C     in any order.
      PROGRAM MORETR
      INTEGER M
      CALL PEELF
      CALL PEELL
      CALL PEELNO
      CALL FUSE
      CALL FUSENO
      CALL COLL
      CALL COLLNO
      CALL STRIDE
      CALL STRNO
      READ (*,*) M
      CALL PEELR(M)
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

C     peeling the first iteration: A(1) is written by the first and read by all (TSVC s293)
      SUBROUTINE PEELF
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 10 I = 1, N
        A(I) = A(1) + B(I)
   10 CONTINUE
      CALL CHECK('peelf')
      END

C     peeling the last iteration: A(N) is read by all and written by the last
      SUBROUTINE PEELL
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 10 I = 1, N
        A(I) = A(N) * C(I) + B(I)
        D(I) = A(N) - E(I)
   10 CONTINUE
      CALL CHECK('peell')
      END

C     no peeling: A(50) is written in an iteration in the middle
      SUBROUTINE PEELNO
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 10 I = 1, N
        A(I) = A(50) + B(I)
   10 CONTINUE
      CALL CHECK('peelno')
      END

C     fusion: the second loop reads the element the first wrote, same iteration
      SUBROUTINE FUSE
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 10 I = 1, N
        A(I) = B(I) + C(I)
   10 CONTINUE
      DO 20 I = 1, N
        D(I) = A(I) * E(I)
   20 CONTINUE
      CALL CHECK('fuse')
      END

C     no fusion: the second loop reads A(I+1), which the first writes later once fused
      SUBROUTINE FUSENO
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 10 I = 1, N - 1
        A(I) = B(I) + C(I)
   10 CONTINUE
      DO 20 I = 1, N - 1
        D(I) = A(I + 1) * E(I)
   20 CONTINUE
      CALL CHECK('fuseno')
      END

C     collapse of a rectangular parallel nest
      SUBROUTINE COLL
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 20 J = 1, N
        DO 10 I = 1, N
          AA(I,J) = BB(I,J) + CC(I,J)
   10   CONTINUE
   20 CONTINUE
      CALL CHECK('coll')
      END

C     no collapse: a triangular nest
      SUBROUTINE COLLNO
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 20 J = 1, N
        DO 10 I = J, N
          AA(I,J) = BB(I,J) + CC(I,J)
   10   CONTINUE
   20 CONTINUE
      CALL CHECK('collno')
      END

C     interchange for stride 1: the outer loop runs along the first dimension
      SUBROUTINE STRIDE
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 20 I = 1, N
        DO 10 J = 1, N
          AA(I,J) = AA(I,J) + BB(I,J) * CC(I,J)
   10   CONTINUE
   20 CONTINUE
      CALL CHECK('stride')
      END

C     no interchange: the inner loop carries a dependence, outermost it would be sequential
      SUBROUTINE STRNO
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J
      CALL INIT
      DO 20 I = 1, N
        DO 10 J = 2, N
          AA(I,J) = AA(I,J - 1) + BB(I,J)
   10   CONTINUE
   20 CONTINUE
      CALL CHECK('strno')
      END

C     peeling the first iteration of a loop of M iterations, M read
      SUBROUTINE PEELR(M)
      INTEGER N
      PARAMETER (N = 100)
      REAL A(N), B(N), C(N), D(N), E(N), AA(N,N), BB(N,N), CC(N,N)
      COMMON /ARR/ A, B, C, D, E, AA, BB, CC
      INTEGER I, J, M
      CALL INIT
      DO 10 I = 1, M
        A(I) = A(1) * 2 + C(I)
   10 CONTINUE
      DO 20 I = 1, M
        B(I) = B(M) + D(I)
   20 CONTINUE
      CALL CHECK('peelr')
      END

