C     Node splitting (rules/dl/transform.dl, split_read): loops whose only
C     carried dependences are anti dependences from reads no write of the
C     loop reaches read a copy of the array taken before the loop; each
C     next to one that must not be split. The loops run over M, read at
C     run time (0, 1 and 60; the arrays hold 100), in subroutines of
C     adjustable arrays.
C     Values are small integers held in REALs: sums are exact in any
C     order.
      PROGRAM SPLITS
      INTEGER N, M
      PARAMETER (N = 100)
      REAL A(N), B(N), AA(N,N)
      READ (*,*) M
      CALL INIT(N, A, B, AA)
      CALL SPLAHD(N, M, A, B)
      CALL CHECK('splahd', N, A, B, AA)
      CALL SPLBCK(N, M, A, B)
      CALL CHECK('splbck', N, A, B, AA)
      CALL SPLSCL(N, M, A, B)
      CALL CHECK('splscl', N, A, B, AA)
      CALL SPLSTP(N, M, A, B)
      CALL CHECK('splstp', N, A, B, AA)
      CALL SPLTWO(N, M, A, B)
      CALL CHECK('spltwo', N, A, B, AA)
      CALL SPLNST(N, M, AA)
      CALL CHECK('splnst', N, A, B, AA)
      CALL SPLEQV(M)
      CALL SPLNO(N, M, A, B)
      CALL CHECK('splno', N, A, B, AA)
      END

      SUBROUTINE INIT(N, A, B, AA)
      INTEGER N, I, J
      REAL A(N), B(N), AA(N,N)
      DO 1 I = 1, N
        A(I) = MOD(I * 7, 11)
        B(I) = MOD(I * 5, 13) - 6
    1 CONTINUE
      DO 3 J = 1, N
        DO 2 I = 1, N
          AA(I,J) = MOD(I + J, 5)
    2   CONTINUE
    3 CONTINUE
      END

      SUBROUTINE CHECK(NAME, N, A, B, AA)
      CHARACTER*(*) NAME
      INTEGER N, I, J
      REAL A(N), B(N), AA(N,N), S
      S = 0
      DO 2 J = 1, N
        S = S + MOD(A(J) + 2 * B(J) + J, 1000.0)
        DO 1 I = 1, N
          S = S + MOD(AA(I,J) * I + J, 1000.0)
    1   CONTINUE
    2 CONTINUE
      PRINT *, NAME, S
      END

C     each iteration reads the element the next one writes (TSVC s131)
      SUBROUTINE SPLAHD(N, M, A, B)
      INTEGER N, M, I, K
      REAL A(N), B(N)
      K = 1
      DO 10 I = 1, M
        A(I) = MOD(A(I + K) + B(I), 100.0)
   10 CONTINUE
      END

C     running backwards, each iteration reads what the next one writes
C     (TSVC s112)
      SUBROUTINE SPLBCK(N, M, A, B)
      INTEGER N, M, I
      REAL A(N), B(N)
      DO 10 I = M, 1, -1
        A(I + 1) = MOD(A(I) + B(I), 100.0)
   10 CONTINUE
      END

C     the subscript is a scalar the loop assigns: the whole array is
C     copied (TSVC s121)
      SUBROUTINE SPLSCL(N, M, A, B)
      INTEGER N, M, I, J
      REAL A(N), B(N)
      DO 10 I = 1, M
        J = I + 1
        A(I) = MOD(A(J) + B(I), 100.0)
   10 CONTINUE
      END

C     a step of 5, five statements each reading ahead (TSVC s116): the
C     whole array is copied
      SUBROUTINE SPLSTP(N, M, A, B)
      INTEGER N, M, I
      REAL A(N), B(N)
      DO 10 I = 1, M, 5
        A(I) = MOD(A(I + 1) * A(I), 100.0)
        A(I + 1) = MOD(A(I + 2) * A(I + 1), 100.0)
        A(I + 2) = MOD(A(I + 3) * A(I + 2), 100.0)
        A(I + 3) = MOD(A(I + 4) * A(I + 3), 100.0)
        A(I + 4) = MOD(A(I + 5) * A(I + 4), 100.0)
   10 CONTINUE
      END

C     A(I) read after it is written in the same iteration stays, A(I + 1)
C     read before the next iteration writes it is renamed (TSVC s241)
      SUBROUTINE SPLTWO(N, M, A, B)
      INTEGER N, M, I
      REAL A(N), B(N)
      DO 10 I = 1, M
        A(I) = MOD(B(I) * 3 + 1, 50.0)
        B(I) = MOD(A(I) * A(I + 1), 70.0)
   10 CONTINUE
      END

C     the outer loop carries a flow, the inner loop reads ahead: the copy
C     is taken in each iteration of the outer loop
      SUBROUTINE SPLNST(N, M, AA)
      INTEGER N, M, I, J
      REAL AA(N,N)
      DO 20 J = 2, M
        DO 10 I = 1, N - 1
          AA(I,J) = MOD(AA(I + 1,J - 1) + AA(I + 1,J), 9.0)
   10   CONTINUE
   20 CONTINUE
      END

C     X and Y share storage: X(I) written, Y(I + 1) read ahead (TSVC s421)
      SUBROUTINE SPLEQV(M)
      INTEGER M, I
      REAL X(100), Y(100), S
      EQUIVALENCE (X(1), Y(1))
      DO 5 I = 1, 100
        Y(I) = MOD(I * 3, 7)
    5 CONTINUE
      DO 10 I = 1, M
        X(I) = MOD(Y(I + 1) + I, 20.0)
   10 CONTINUE
      S = 0
      DO 20 I = 1, 100
        S = S + X(I) * I
   20 CONTINUE
      PRINT *, 'spleqv', S
      END

C     no splitting: A(I - 1) is written by the iteration before (a flow)
      SUBROUTINE SPLNO(N, M, A, B)
      INTEGER N, M, I
      REAL A(N), B(N)
      DO 10 I = 2, M
        A(I) = MOD(A(I + 1) + A(I - 1), 100.0)
   10 CONTINUE
      END
